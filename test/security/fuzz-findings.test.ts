// What the generated fuzz (fuzz.test.ts) found, pinned one by one so that each stays fixed
// whatever the fuzz's seed draws.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** A form file whose YAML escapes make text jsonb cannot store. */
const fileWith = (slug: string, title: string) =>
  `---\ntitle: "${title}"\nslug: ${slug}\nhumanness: false\nfields:\n  - id: a\n    type: text\n---\n`;

describe.each(DB_KINDS)("what the fuzz found (%s)", (kind) => {
  let s: TestServer;
  let mcp: Client;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    mcp = new Client({ name: "findings", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
      }),
    );
  });
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  it("refuses a form file whose YAML escapes spell a lone surrogate or NUL with 400, on REST and MCP", async () => {
    const api = client(s.url, s.apiKey);
    for (const [i, yamlEscape] of ["\\ud800", "\\udfff", "\\0", "\\x00", "\\u0000"].entries()) {
      const markdown = fileWith(`esc-${i}`, `bad ${yamlEscape} title`);
      const put = await api("PUT", `/api/forms/esc-${i}`, { body: { markdown } });
      expect([yamlEscape, put.status, put.body.code]).toEqual([
        yamlEscape,
        400,
        "validation_failed",
      ]);
      expect(put.body.details[0].message).toMatch(/NUL|surrogate/);
      const created = (await mcp.callTool({ name: "create_form", arguments: { markdown } })) as {
        isError?: boolean;
        structuredContent: { code: string };
      };
      expect([yamlEscape, created.isError, created.structuredContent.code]).toEqual([
        yamlEscape,
        true,
        "validation_failed",
      ]);
    }
    // the same text written plainly is fine
    const fine = await api("PUT", "/api/forms/esc-fine", {
      body: { markdown: fileWith("esc-fine", "fine \\u00e9 title") },
    });
    expect(fine.status).toBe(201);
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });
});
