// SPEC §19 "Every malformed input is a 4xx": invalid UTF-8 and lone surrogates in every path
// parameter of every OpenAPI operation, and deeply nested JSON (with escapes) in every body,
// answer 4xx `{error, code}`, never 5xx, and the server stays healthy.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../functions/openapi.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Path segments no decoder may choke on: invalid UTF-8, encoded lone surrogates, overlongs. */
const BAD_SEGMENTS = [
  "%ED%A0%80", // a lone high surrogate as UTF-8 bytes (CESU)
  "%ED%BF%BF", // a lone low surrogate
  "%FF",
  "%C0%AF", // overlong "/"
  "%E2%82", // truncated
  "%zz",
  "a%00b",
];

const deep = (depth: number, escaped: boolean) =>
  `${"[".repeat(depth)}${escaped ? '"\\u0041\\ud800"' : "1"}${"]".repeat(depth)}`;
const deepObject = (depth: number) => `{"title":"T","slug":"deep","fields":${deep(depth, true)}}`;

interface Operation {
  method: string;
  template: string;
  hasBody: boolean;
}

async function operations(): Promise<Operation[]> {
  const doc = await openApiDocument("http://localhost");
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      out.push({
        method: method.toUpperCase(),
        template,
        hasBody: !!(op as { requestBody?: unknown }).requestBody,
      });
    }
  }
  return out;
}

/** The same request to `/view/…` pages too, which decode their ids without being in the API. */
const PAGES = ["/view/responses/{id}", "/view/forms/{id}/report"];

const ops = await operations();

describe("malformed input (SPEC §19)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", {
      body: { title: "Mine", slug: "mine", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
  });
  afterAll(() => s?.close());

  const send = async (method: string, path: string, body?: string) => {
    // a server that answers before reading a body closes the connection: undici may have
    // reused it already, which is a client-side reset, not an answer
    const res = await once(method, path, body).catch(() => once(method, path, body));
    const text = await res.text();
    return { status: res.status, text };
  };
  const once = (method: string, path: string, body?: string) =>
    fetch(`${s.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${s.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body }),
    });

  it("lists the operations it fuzzes from the OpenAPI document", () => {
    expect(ops.length).toBeGreaterThan(25);
    expect(ops.some((o) => o.template.includes("{slug}"))).toBe(true);
  });

  it("answers invalid UTF-8 and lone surrogates in any path parameter with a 4xx, never a 5xx", async () => {
    const failures: string[] = [];
    const templates = [
      ...ops.map((o) => [o.method, o.template] as const),
      ...PAGES.map((p) => ["GET", p] as const),
    ].filter(([, t]) => t.includes("{"));
    for (const [method, template] of templates) {
      for (const bad of BAD_SEGMENTS) {
        // one parameter at a time, the others valid-looking, so each one's decoding is reached
        const names = template.match(/\{[^}]+\}/g) ?? [];
        for (const name of names) {
          const path = template.replace(/\{[^}]+\}/g, (m) =>
            m === name ? bad : m === "{slug}" ? "mine" : "00000000-0000-4000-8000-000000000000",
          );
          const body = method === "GET" || method === "DELETE" ? undefined : "{}";
          const res = await send(method, path, body);
          if (res.status >= 500 || res.status < 400)
            failures.push(`${method} ${path} → ${res.status}`);
          else if (res.text.startsWith("{"))
            expect(typeof JSON.parse(res.text).code).toBe("string");
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses a malformed percent-escape in any path with 400 invalid_param, before the route", async () => {
    for (const path of ["/api/forms/%ED%A0%80", "/view/responses/%ED%A0%80", "/api/forms/a%00b"]) {
      const res = await send("GET", path);
      expect([path, res.status, JSON.parse(res.text).code]).toEqual([path, 400, "invalid_param"]);
    }
    const fine = await send("GET", "/api/forms/%6Dine");
    expect(fine.status).toBe(200);
  });

  it("answers deeply nested JSON with escapes with 400 on every operation that takes a body", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.hasBody)) {
      const path = op.template.replace(/\{slug\}/g, "mine").replace(/\{[^}]+\}/g, "x");
      for (const body of [
        deep(100_000, true),
        deepObject(50_000),
        `{"name":${deep(5000, true)}}`,
      ]) {
        const res = await send(op.method, path, body);
        if (res.status >= 500) failures.push(`${op.method} ${path} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    for (const [path, depth] of [
      ["/api/forms", 100_000],
      ["/api/forms/mine/submit", 100_000],
      ["/api/keys", 1500],
    ] as const) {
      const res = await send("POST", path, `{"fields":${deep(depth, true)}}`);
      expect([path, res.status, JSON.parse(res.text).code]).toEqual([path, 400, "invalid_request"]);
    }
    // the MCP endpoint reads its own body: a deep one is no 5xx, a large one a 413
    const rpc = (params: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`;
    const nested = await send("POST", "/api/mcp", rpc(deep(100_000, true)));
    expect(nested.status).toBeLessThan(500);
    const big = await send("POST", "/api/mcp", rpc(`"${"x".repeat(1_100_000)}"`));
    expect([big.status, JSON.parse(big.text).code]).toEqual([413, "payload_too_large"]);
  });

  it("never answers a random path segment or nested body with a 5xx (fast-check)", async () => {
    const slugOps = ops.filter((o) => o.template.includes("{"));
    const segment = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }).map(encodeURIComponentLoose),
      fc.uint8Array({ maxLength: 6 }).map((b) => [...b].map((x) => `%${hex(x)}`).join("")),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...slugOps),
        segment,
        fc.integer({ min: 1, max: 3000 }),
        async (op, seg, depth) => {
          const path = op.template.replace(/\{[^}]+\}/g, seg === "" ? "x" : seg);
          const body = op.hasBody ? `{"a":${deep(depth, depth % 2 === 0)}}` : undefined;
          const res = await send(op.method, path, body);
          expect(res.status, `${op.method} ${path}`).toBeLessThan(500);
        },
      ),
      { numRuns: 120 },
    );
    expect((await send("GET", "/api/health")).status).toBe(200);
  });
});

const hex = (x: number) => x.toString(16).padStart(2, "0").toUpperCase();

/** Percent-encodes a string's UTF-16 units one by one, so lone surrogates come out as bytes too. */
function encodeURIComponentLoose(text: string): string {
  let out = "";
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0); // a lone surrogate: its CESU-8 bytes
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]
        .map((b) => `%${hex(b)}`)
        .join("");
    }
  }
  return out;
}
