// Found 2026-11-28 (docs/security-review.md, the lead's note after the seventh review): gray-matter
// tests a form file's header with `/^\s*#[^\n]+/gm`, quadratic in a run of blank lines. Any
// account's key deploys a header (PUT /api/forms/{slug}, deploy_form): 120 KB of " \n" held the
// event loop 2.6 s, 256 KB about 10 s; U+2028 inside one quoted label did the same. A header with
// more than MAX_HEADER_BLANKS blanks in a row is refused before gray-matter reads it.
import { describe, expect, it } from "vitest";
import { MAX_HEADER_BLANKS } from "../../src/core/form-bounds.ts";
import { parseFormFile } from "../../src/core/form-file.ts";

const file = (header: string) =>
  `---\ntitle: Runs\nslug: runs${header}\nfields:\n  - {id: a, type: text, label: A}\n---\nHi\n`;

describe("a form file's header with long runs of blanks", () => {
  it("is refused with its line and the bound, for blank lines and for line separators in a label", () => {
    for (const header of [" \n".repeat(60_000), `\ndescription: "${"\u2028".repeat(60_000)}"`]) {
      const result = parseFormFile(file(header), "forms/@me/runs.md");
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors[0]).toMatchObject({ file: "forms/@me/runs.md", line: 1 });
      expect(result.errors[0]!.message).toMatch(/blank characters in a row; at most 1,000$/);
    }
  });

  it("reads a header with up to the bound of blanks in a row, and refuses one more", () => {
    expect(parseFormFile(file("\n".repeat(MAX_HEADER_BLANKS - 1)), "forms/@me/runs.md").ok).toBe(
      true,
    );
    expect(parseFormFile(file("\n".repeat(MAX_HEADER_BLANKS)), "forms/@me/runs.md").ok).toBe(false);
  });
});
