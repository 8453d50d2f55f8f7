// Eleventh review, part B (2026-11-28): a form file's errors are placed on their lines by reading
// each header line for a key with `^(\s*)(- +)?(["']?)(.*?)\3\s*:(\s|$)`. On a line of blanks and
// letters with no key, the indentation, the lazy key and `\s*` backtrack into one another: one
// line of 990 spaces, "x", 1,000 spaces and "x" (2 KB, within the header's bound of 1,000 blanks
// in a row) held the event loop 8 s, and any mistake in the form (a missing slug) has its lines
// read. One `POST /api/forms` of an invalid form with 60 such lines (any account's key, or a
// committed file) would hold it minutes. The key is now read in linear time. Before, each case here
// outlived the suite's timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { yamlLocator } from "../../src/core/yaml-locate.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const blankLine = `${" ".repeat(990)}x${" ".repeat(1000)}x`;
// a label whose quoted text runs over 60 such lines, and a form without its slug
const markdown = `---\ntitle: Runs\nfields:\n  - id: a\n    type: text\n    label: "a\n${`${blankLine}\n`.repeat(60)}      b"\n---\n`;

describe("header lines of blanks and letters", () => {
  it("are read for keys in linear time", () => {
    const header = `title: x\n${`${blankLine}\n`.repeat(60)}${" ".repeat(999)}- ${"y ".repeat(500)}\n`;
    expect(yamlLocator(header)(["title"])).toBe(1);
  });

  it("still place an error on its key's line", () => {
    const result = parseFormFile(markdown, "runs.md");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: "slug", line: 1 });
    const typo = parseFormFile(markdown.replace("type: text", "type: texx"), "runs.md");
    expect(typo.ok).toBe(false);
    if (!typo.ok) {
      expect(typo.errors.find((e) => e.path === "fields[0].type")).toMatchObject({ line: 5 });
    }
  });

  describe("in a form sent to the API", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s?.close());

    it("answer its mistakes", async () => {
      const api = client(s.url, s.apiKey);
      const res = await api("POST", "/api/forms", { body: { markdown } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain("slug");
      const health = await api("GET", "/api/health", { key: null });
      expect(health.status).toBe(200);
    });
  });
});
