// Sixth review (2026-11-28, docs/security-review.md): the Markdown writers escaped a block marker
// at a line's start with `^(\s*)([#>+-])(\s)/gm` (and `^(\s*\d+)([.)])`); `\s*` crosses line
// breaks, so from each of an answer's line breaks it scanned to the end of the text and back. One
// anonymous answer of 300,000 line breaks (a textarea whose `max_length` allows it) held the event
// loop 80 s on each Markdown export, each report (REST, MCP, `/results`) of the form. The indent
// now stops at a line break. Before, each case here outlived the suite's timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeCell, escapeMarkdown } from "../../src/core/markdown.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer, testFetch } from "../helpers/server.ts";

const runs = {
  "line breaks": "\n".repeat(300_000),
  "CR LF": "\r\n".repeat(150_000),
  "indented lines": "\n ".repeat(150_000),
  "numbered lines": "\n1".repeat(150_000),
  "line separators": "\u2028".repeat(300_000),
};

describe("line breaks in a text written as Markdown", () => {
  it.each(Object.entries(runs))("escapes %s in one linear pass", (_, text) => {
    expect(escapeMarkdown(`${text}x`).endsWith("x")).toBe(true);
    expect(escapeCell(`${text}x`).endsWith("x")).toBe(true);
  });

  it("still escapes a block marker at any line's start, indented or not", () => {
    expect(escapeMarkdown("a\n\n- b\n  # c\n\t> d\n12. e\n 3) f\n+g")).toBe(
      "a\n\n\\- b\n  \\# c\n\t\\> d\n12\\. e\n 3\\) f\n+g",
    );
  });

  describe("an answer of 300,000 line breaks", () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    beforeAll(async () => {
      s = await startTestServer();
      api = client(s.url, s.apiKey);
      const markdown = `---\ntitle: Notes\nslug: notes\nhumanness: false\nfields:\n  - id: note\n    type: textarea\n    label: Note\n    max_length: 900000\n---\n`;
      const made = await api("POST", "/api/forms", { body: { markdown } });
      expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
      // a stranger's answer: no key
      const sent = await api("POST", "/api/forms/notes/submit", {
        key: null,
        body: { fields: { note: `${"\n".repeat(300_000)}x` } },
      });
      expect(sent.status, JSON.stringify(sent.body).slice(0, 300)).toBe(201);
    });
    afterAll(() => s?.close());

    it("is exported as Markdown", async () => {
      const res = await testFetch(`${s.url}/api/forms/notes/responses/export?format=markdown`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(`${"<br>".repeat(1000)}x |`);
    });

    it("is quoted in the Markdown report", async () => {
      const res = await api("GET", "/api/forms/notes/report?format=markdown");
      expect(res.status).toBe(200);
      expect(String(res.body)).toContain("## Answers");
    });
  });
});
