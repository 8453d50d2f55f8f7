// `npm start` compresses text answers for a client that accepts it (issue 47 item 7): the page,
// its JS and CSS, /api/openapi.json; a download (an export) goes uncompressed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  const api = client(s.url, s.apiKey);
  const fields = [{ id: "name", type: "text" }];
  const created = await api("POST", "/api/forms", {
    body: { title: "Zipped", slug: "zipped", humanness: false, fields },
  });
  expect(created.status).toBe(201);
  for (let i = 0; i < 40; i++) {
    const body = { fields: { name: `Person number ${i}` } };
    expect((await api("POST", "/api/forms/zipped/submit", { key: null, body })).status).toBe(201);
  }
});
afterAll(() => s?.close());

/** The same GET with and without compression: the encoding it came in, and both bodies. */
async function both(path: string, encoding: string, key?: string) {
  const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const zipped = await fetch(`${s.url}${path}`, {
    headers: { "accept-encoding": encoding, ...auth },
  });
  const plain = await fetch(`${s.url}${path}`, {
    headers: { "accept-encoding": "identity", ...auth },
  });
  return {
    status: zipped.status,
    encoding: zipped.headers.get("content-encoding"),
    plainEncoding: plain.headers.get("content-encoding"),
    // fetch decodes what it was sent: equal bodies mean it decoded
    same: (await zipped.text()) === (await plain.text()),
  };
}

describe("text compression", () => {
  it("the form page, its JS and CSS, and the OpenAPI document, in gzip and brotli", async () => {
    const page = await (await fetch(`${s.url}/@me/zipped`)).text();
    const script = /<script type="module" src="([^"]+)"/.exec(page)?.[1];
    const style = /<link rel="stylesheet" href="([^"]+)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    for (const path of ["/@me/zipped", script!, style!, "/api/openapi.json"])
      for (const encoding of ["gzip", "br"])
        expect({ path, ...(await both(path, encoding)) }).toEqual({
          path,
          status: 200,
          encoding,
          plainEncoding: null,
          same: true,
        });
  });

  // a download is left as it is: one that fails midway reaches the client cut and frees its
  // connection at once (test/security/no-stall.test.ts), which a compressor in between delayed
  it("leaves an export (a download) uncompressed", async () => {
    const path = "/api/forms/zipped/responses/export?format=csv";
    expect(await both(path, "gzip", s.apiKey)).toEqual({
      status: 200,
      encoding: null,
      plainEncoding: null,
      same: true,
    });
  });
});
