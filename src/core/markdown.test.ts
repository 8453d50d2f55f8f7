import { describe, expect, it } from "vitest";
import { escapeCell, escapeMarkdown, markdownTable } from "./markdown.ts";

describe("Markdown escaping", () => {
  it("escapes the characters that would become syntax, leaving plain words alone", () => {
    expect(escapeMarkdown("**bold** [x](y) `c` <b>")).toBe(
      "\\*\\*bold\\*\\* \\[x\\](y) \\`c\\` \\<b\\>",
    );
    expect(escapeMarkdown("snake_case_id")).toBe("snake_case_id");
    expect(escapeMarkdown("_lead")).toBe("\\_lead");
    expect(escapeMarkdown("# heading\n- item\n1. first")).toBe("\\# heading\n\\- item\n1\\. first");
    expect(escapeMarkdown("a - b, 3.5")).toBe("a - b, 3.5");
  });

  it("keeps a table cell on one line with its pipes escaped", () => {
    expect(escapeCell("a|b\r\nc\nd")).toBe("a\\|b<br>c<br>d");
  });

  it("renders a GFM table with leading and trailing pipes and one row per line", () => {
    const table = markdownTable(
      ["Option", "Count"],
      [
        ["x|y", "2"],
        ["multi\nline", "1"],
      ],
    );
    const lines = table.split("\n");
    expect(lines).toEqual([
      "| Option | Count |",
      "| --- | --- |",
      "| x\\|y | 2 |",
      "| multi<br>line | 1 |",
    ]);
    for (const line of lines) expect(line.replace(/\\\|/g, "").split("|").length).toBe(4);
  });
});
