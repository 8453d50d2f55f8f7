import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressed, pickEncoding } from "./compress.ts";

const big = "hello formdown ".repeat(500);
const get = (accept?: string, method = "GET") =>
  new Request("http://x/", { method, headers: accept ? { "accept-encoding": accept } : {} });
const text = (type: string, body = big, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": type, ...headers } });

describe("compressed answers", () => {
  it("picks brotli, then gzip, as Accept-Encoding allows (q=0 refuses)", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip, br;q=0")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding(null)).toBeNull();
  });

  it("compresses text to what decodes back to it, naming the encoding and Vary", async () => {
    const res = compressed(get("gzip"), text("text/html; charset=utf-8", big, { etag: '"v1"' }));
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    expect(res.headers.get("etag")).toBe('W/"v1"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(big.length / 5);
    expect(gunzipSync(bytes).toString()).toBe(big);
  });

  it("leaves alone an event stream, a small or binary answer, HEAD and a client that accepts none", () => {
    for (const [req, res] of [
      [get("gzip"), text("text/event-stream")],
      [get("gzip"), text("image/png")],
      [get("gzip"), text("text/plain", "short", { "content-length": "5" })],
      [get("gzip", "HEAD"), text("text/html")],
      [get(), text("text/html")],
      [get("gzip"), text("text/html", big, { "content-encoding": "br" })],
    ] as const)
      expect(compressed(req, res).headers.get("content-encoding")).toBe(
        res.headers.get("content-encoding"),
      );
  });
});
