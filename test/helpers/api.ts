import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { openApiDocument } from "../../functions/openapi.ts";
import { testFetch } from "./server.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
const doc = await openApiDocument("http://localhost");

function template(path: string): string | null {
  const pathname = path.split("?")[0]!;
  const templates = Object.keys(doc.paths);
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  // the most literal template wins (`/responses/export` over `/responses/{id}`)
  const matches = templates
    .filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname))
    .sort((a, b) => params(a) - params(b));
  return matches[0] ?? null;
}

/** Checks a JSON answer against the OpenAPI document's schema for that operation and status. */
export function expectMatchesOpenApi(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  const t = template(path);
  expect(t, `no OpenAPI path for ${path}`).not.toBeNull();
  const op = (doc.paths[t!] as Record<string, { responses: Record<string, unknown> }>)[
    method.toLowerCase()
  ];
  expect(op, `no OpenAPI operation ${method} ${t}`).toBeDefined();
  let response = op!.responses[String(status)] as
    | { $ref?: string; content?: Record<string, { schema: unknown }> }
    | undefined;
  expect(response, `OpenAPI lists no ${status} for ${method} ${t}`).toBeDefined();
  if (response?.$ref)
    response = (doc.components.responses as unknown as Record<string, typeof response>)[
      response.$ref.split("/").pop()!
    ];
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema || body === null) return;
  const validate = ajv.compile({ ...(schema as object), components: doc.components } as object);
  const ok = validate(body);
  expect(
    ok,
    `${method} ${path} ${status} does not match OpenAPI: ${ajv.errorsText(validate.errors)}`,
  ).toBe(true);
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A JSON request to the test server (in this process, testFetch); every answer is checked
 * against the OpenAPI document.
 */
export function client(base: string, defaultKey?: string) {
  return async function api<T = any>(
    method: string,
    path: string,
    options: {
      key?: string | null;
      body?: unknown;
      raw?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? defaultKey : options.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const res = await testFetch(`${base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    const type = res.headers.get("content-type") ?? "";
    const parsed = type.includes("json") && text ? JSON.parse(text) : text || null;
    if (path.startsWith("/api/") && !path.startsWith("/api/mcp"))
      expectMatchesOpenApi(method, path, res.status, parsed);
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}
