// Eleventh review, part B (2026-11-28): a change made through REST or MCP is applied to the
// form's file in place, and the lines it touches are found by a longest-common-subsequence table
// of lines × lines (`carryOver`, `matchLines`), in time and memory. A form file of 8,000 comment
// lines (16 KB, any account's key) held the event loop 6 s at a change of its title; the 20,000
// here took 12 s and tables of 1.6 GB (256 KB of them would take hours and 60 GB). The table is
// now bounded (`MAX_CELLS` in line-diff.ts, the ninth review's part C found the same): past it the
// lines the texts share at their start and end are matched, so the author's lines, spacing
// included, are still kept, in a fraction of a second.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { editFormFile } from "../../src/core/form-write.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const comments = "#\n".repeat(20_000);
const markdown = `---\ntitle:   Notes\nslug: notes\nhumanness: false\nfields:\n  - id: a\n    type: text\n    label: A\n${comments}---\n`;

describe("a change to a form file of many lines", () => {
  it("is written in place, its comments kept", () => {
    const parsed = parseFormFile(markdown);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const out = editFormFile(markdown, { ...parsed.form, title: "Changed" });
    expect(out.startsWith("---\ntitle:   Changed\nslug: notes\n")).toBe(true);
    expect(out).toContain(comments);
  });

  it("keeps a short file's lines as the author wrote them", () => {
    const text = `---\ntitle:   Notes   # mine\nslug: notes\nfields:\n  - {id: a, type: text, label: A}\n---\n`;
    const parsed = parseFormFile(text);
    if (!parsed.ok) throw new Error("the short file is a form");
    expect(editFormFile(text, { ...parsed.form, title: "New" })).toBe(
      `---\ntitle:   New   # mine\nslug: notes\nfields:\n  - {id: a, type: text, label: A}\n---\n`,
    );
  });

  it("reordered across an anchor is written, not a 500", () => {
    // the `yaml` package threw "Unresolved alias" at the alias now before its anchor
    const text = `---\ntitle: T\nslug: t\nfields:\n  - {id: a, type: text, label: &l Hi}\n  - {id: b, type: text, label: *l}\n---\n`;
    const parsed = parseFormFile(text);
    if (!parsed.ok) throw new Error("the file is a form");
    const after = { ...parsed.form, fields: [...parsed.form.fields].reverse() };
    const back = parseFormFile(editFormFile(text, after));
    expect(back.ok && back.form.fields.map((f) => f.id)).toEqual(["b", "a"]);
  });

  describe("through the API", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s?.close());

    it("is made and answered", async () => {
      const api = client(s.url, s.apiKey);
      const made = await api("POST", "/api/forms", { body: { markdown } });
      expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
      const changed = await api("PATCH", "/api/forms/notes", { body: { title: "Changed" } });
      expect(changed.status, JSON.stringify(changed.body).slice(0, 300)).toBe(200);
      const file = await s.ctx.repo.read(`forms/@${s.handler}/notes.md`);
      expect(file?.startsWith("---\ntitle:   Changed\n")).toBe(true);
      expect(file).toContain(comments);
    });
  });
});
