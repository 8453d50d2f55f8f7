// The REST half of the generated fuzz: every operation of the server's own OpenAPI document,
// its path, query, header parameters and body generated from their declared JSON Schemas.
import fc from "fast-check";
import { anyOf, fromSchema, type Hints, type Schema } from "./fuzz-arbitraries.ts";
import { asText, encodeLoose, hostileString } from "./fuzz-hostile.ts";

type Doc = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

interface Param {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  /** `METHOD /template`, as a failure names it. */
  name: string;
  method: string;
  template: string;
  params: Param[];
  body?: { type: "json" | "multipart"; schema: Schema };
  /** `security: []`: a respondent's page calls it without a key. */
  public: boolean;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document, with the path item's parameters and `$ref`s resolved. */
export function operationsOf(doc: Doc): Operation[] {
  const deref = <T>(node: T): T => {
    const ref = (node as { $ref?: string })?.$ref;
    if (!ref) return node;
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k], doc);
    return deref(target as T);
  };
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as Param[]) ?? []).map(deref);
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const own = ((op.parameters as Param[]) ?? []).map(deref);
      const params = [...shared.filter((p) => !own.some((o) => o.name === p.name)), ...own];
      const content = (deref(op.requestBody) as { content?: Record<string, { schema?: Schema }> })
        ?.content;
      const json = content?.["application/json"];
      const multipart = content?.["multipart/form-data"];
      out.push({
        name: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        params,
        ...(json
          ? { body: { type: "json" as const, schema: json.schema ?? true } }
          : multipart
            ? { body: { type: "multipart" as const, schema: multipart.schema ?? true } }
            : {}),
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return out;
}

/** One generated request, printable as it is (a failure shows it whole, to replay it). */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** `"key"`: the owner's; `"none"`, `"bogus"`; `"admin"`: the admin token. */
  auth: "key" | "none" | "bogus" | "admin";
  json?: string;
  multipart?: { name: string; value: string; filename?: string }[];
}

/** Header values fetch can send (a ByteString without CR/LF). */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "?").slice(0, 2000);

/**
 * An operation's requests: a third declared values only (real ids, what the schema allows), so
 * the handler's own work is reached; the rest with hostile values anywhere.
 */
export function requestsFor(op: Operation, doc: Doc, hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 1, arbitrary: variant(op, doc, hints, true) },
    { weight: 2, arbitrary: variant(op, doc, hints, false) },
  );
}

function variant(op: Operation, doc: Doc, hints: Hints, strict: boolean) {
  const gen = (schema: Schema | undefined) => {
    const g = fromSchema(schema ?? true, doc, hints);
    return strict ? g.valid : anyOf(g);
  };
  const paramValue = (p: Param) => {
    const hint = hints[p.name];
    return hint && strict ? hint : hint ? fc.oneof(hint, gen(p.schema)) : gen(p.schema);
  };
  const pathParams = op.params.filter((p) => p.in === "path");
  const others = op.params.filter((p) => p.in === "query" || p.in === "header");
  // strict paths name what exists (every parameter a real one)
  const path = fc.tuple(
    ...pathParams.map((p) => (strict ? paramValue(p) : fc.oneof(paramValue(p), hostileString))),
  );
  const query = fc.tuple(
    ...others.map((p) =>
      p.required ? paramValue(p) : fc.option(paramValue(p), { nil: undefined }),
    ),
  );
  // most URLs stay under Node's 16 KB header limit, so that the route is reached (an 8th not)
  const long = strict ? fc.constant(false) : fc.nat(7).map((n) => n === 0);
  const auth: fc.Arbitrary<FuzzRequest["auth"]> =
    op.name === "POST /api/accounts"
      ? fc.constantFrom("admin", "key")
      : op.public
        ? fc.constantFrom("none", "key")
        : strict
          ? fc.constant("key")
          : fc.oneof(
              { weight: 9, arbitrary: fc.constant("key") },
              fc.constantFrom("none", "bogus"),
            );
  return fc
    .tuple(path, query, auth, bodyOf(op, gen), long)
    .map(([segments, values, a, b, keepLong]): FuzzRequest => {
      const cut = (text: string) => (keepLong ? text : text.slice(0, 1500));
      const p = pathParams.reduce(
        (t, param, i) => t.replace(`{${param.name}}`, encodeLoose(cut(asText(segments[i]))) || "x"),
        op.template,
      );
      const headers: Record<string, string> = {};
      others.forEach((param, i) => {
        if (values[i] !== undefined && param.in === "header")
          headers[param.name] = headerSafe(asText(values[i]));
      });
      // by hand, not URLSearchParams, which writes a lone surrogate as U+FFFD
      const raw = others
        .map((param, i) => [param, values[i]] as const)
        .filter(([param, v]) => param.in === "query" && v !== undefined)
        .map(([param, v]) => `${param.name}=${encodeLoose(cut(asText(v)))}`)
        .join("&");
      return { method: op.method, path: raw ? `${p}?${raw}` : p, headers, auth: a, ...b };
    });
}

function bodyOf(
  op: Operation,
  gen: (schema: Schema) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Pick<FuzzRequest, "json" | "multipart">> {
  if (!op.body) return fc.constant({});
  const value = gen(op.body.schema);
  if (op.body.type === "json")
    return fc.oneof(
      { weight: 9, arbitrary: value.map((v) => ({ json: JSON.stringify(v) ?? "null" })) },
      // not JSON at all, or JSON cut short
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("", "{", '{"a":', "nul", "\ud800", "[1,]")
          .map((json) => ({ json })),
      },
    );
  return value.map((v) => ({
    multipart: Object.entries(v && typeof v === "object" ? v : { file: v }).map(([name, part]) =>
      name === "file"
        ? { name, value: asText(part), filename: "f.pdf" }
        : { name, value: asText(part) },
    ),
  }));
}

export interface Answer {
  status: number;
  text: string;
}

export async function send(
  base: string,
  keys: { key: string; admin: string },
  req: FuzzRequest,
): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.auth === "key") headers.authorization = `Bearer ${keys.key}`;
  if (req.auth === "admin") headers.authorization = `Bearer ${keys.admin}`;
  if (req.auth === "bogus") headers.authorization = "Bearer fd_bogus\u00ff";
  let body: string | FormData | undefined;
  if (req.json !== undefined) {
    body = req.json;
    headers["content-type"] = "application/json";
  } else if (req.multipart) {
    const form = new FormData();
    for (const part of req.multipart)
      if (part.filename) form.append(part.name, new File([part.value], part.filename));
      else form.append(part.name, part.value);
    body = form;
  }
  const once = () =>
    fetch(`${base}${req.path}`, {
      method: req.method,
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
      ...(body === undefined ? {} : { body }),
    });
  // a server that answers before reading a body closes the connection: undici may have reused
  // it already, which is a client-side reset, not an answer
  const res = await once().catch((e: Error) =>
    e.name === "TimeoutError" ? Promise.reject(e) : once(),
  );
  return { status: res.status, text: await res.text() };
}

/** What the fuzz asserts of an answer: no 5xx but 503; a 4xx says `{error, code}` in JSON. */
export function problemOf(answer: Answer): string | null {
  if (answer.status >= 500 && answer.status !== 503) return `${answer.status}`;
  if (answer.status < 400 || answer.status >= 500) return null;
  try {
    const body = JSON.parse(answer.text) as { error?: unknown; code?: unknown };
    if (typeof body.error === "string" && typeof body.code === "string") return null;
  } catch {}
  return `${answer.status} without a JSON {error, code} body`;
}

/** A request as a failure prints it: enough to send it again by hand. */
export function describeRequest(req: FuzzRequest): string {
  const cut = (t: string) => (t.length > 400 ? `${t.slice(0, 400)}… (${t.length} chars)` : t);
  const body = req.json ?? (req.multipart ? JSON.stringify(req.multipart) : "");
  const headers = Object.keys(req.headers).length ? ` ${JSON.stringify(req.headers)}` : "";
  return `${req.method} ${cut(req.path)} [auth: ${req.auth}]${headers}${body ? ` ${cut(body)}` : ""}`;
}
