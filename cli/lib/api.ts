import type { z } from "zod";
import type { ROUTE_SCOPES } from "../../functions/route-scopes.ts";
import { closest } from "../../src/core/did-you-mean.ts";
import { type Plan, planLines } from "../../src/core/plan/plan.ts";
import type { Settings } from "./config.ts";

/** A failure the CLI prints as one line: `error: <message> (<code>)`, exit 1. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(message: string, code = "error", exitCode = 1) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** sysexits.h EX_TEMPFAIL: a temporary failure (the database is unreachable), worth a retry. */
const TEMPFAIL = 75;

/** A usage problem: exit 2. */
export const usage = (message: string) => new CliError(message, "usage", 2);

/**
 * An operation of the API by its name in functions/route-scopes.ts (`GET /api/forms/:slug/stats`),
 * so each call names a declared route; creating an account is the one without a key's scope.
 */
export type Operation = keyof typeof ROUTE_SCOPES | "POST /api/accounts";
/**
 * One call: the operation's `:params` by name, its query (the other given values, unset ones left
 * out), its JSON `body`, and the `token` to send instead of the key (an admin token).
 */
type Call = { body?: unknown; token?: string; [name: string]: unknown };

/** The method and path an operation is called with: its pattern filled in, then the query. */
function target(operation: Operation, { body: _, token: __, ...rest }: Call): [string, string] {
  const [method, pattern] = operation.split(" ") as [string, string];
  const path = pattern.replace(/:(\w+)(\{[^/]*\})?/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return enc(String(value ?? ""));
  });
  const query = Object.entries(rest)
    .filter(([, v]) => v !== undefined && v !== false && v !== "")
    .map(([k, v]) => `${k}=${enc(String(v))}`);
  return [method, query.length ? `${path}?${query.join("&")}` : path];
}

export async function request(
  settings: Settings,
  operation: Operation,
  call: Call = {},
): Promise<Response> {
  const [method, path] = target(operation, call);
  const { body } = call;
  const token = call.token ?? settings.key;
  if (!token)
    throw new CliError(
      "no API key: pass --key, set FORMDOWN_API_KEY, or run `formdown login`",
      "unauthorized",
    );
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(`${settings.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new CliError(
      `cannot reach ${settings.url}: is the server running (\`npm start\`)?`,
      "unreachable",
    );
  }
  if (res.ok) return res;
  const json = (await res.json().catch(() => ({}))) as {
    error?: string;
    code?: string;
    details?: { field: string; message: string }[] | Plan;
  };
  const details = Array.isArray(json.details)
    ? json.details.map((d) => `\n  ${d.field}: ${d.message}`).join("")
    : json.details && "changes" in json.details
      ? planLines(json.details)
          .map((l) => `\n  ${l}`)
          .join("")
      : "";
  const hint = json.code === "not_found" ? await slugHint(settings, path, token) : "";
  throw new CliError(
    `${json.error ?? `HTTP ${res.status}`}${hint}${details}`,
    json.code ?? String(res.status),
    // the server is up but its database is not: EX_TEMPFAIL, so a script knows to try again
    json.code === "unavailable" ? TEMPFAIL : 1,
  );
}

/** For a slug that is not found: ` Did you mean "contact"?` from the caller's own forms. */
async function slugHint(settings: Settings, path: string, token: string | undefined) {
  const slug = /^\/api\/forms\/([^/?]+)/.exec(path)?.[1];
  if (!slug || !token) return "";
  try {
    const res = await fetch(`${settings.url}/api/forms`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) return "";
    const forms = (await res.json()) as { slug: string }[];
    const c = closest(
      decodeURIComponent(slug),
      forms.map((f) => f.slug),
    );
    return c ? ` Did you mean "${c}"?` : "";
  } catch {
    return "";
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the CLI passes API answers through; commands narrow what they read
export async function api<T = any>(
  settings: Settings,
  operation: Operation,
  call?: Call,
): Promise<T> {
  const res = await request(settings, operation, call);
  return (res.status === 204 ? null : await res.json()) as T;
}

export const enc = encodeURIComponent;

/** What an operation answers, as its contract (functions/contracts/) declares it. */
export type Out<S extends z.ZodType> = z.output<S>;
