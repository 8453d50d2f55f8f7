import { describe, expect, it } from "vitest";
import { locateLine, yamlLocator } from "./yaml-locate.ts";

const doc = `title: T
fields:
  - id: a
    type: radio
    options: [x, y]
    show_if:
      field: b
  # a comment: with a colon
  - id: "b"
    label: B
settings:
  submit_label: Go
`;

describe("locating a key path in a YAML header", () => {
  it.each([
    [["title"], 1],
    [["fields"], 2],
    [["fields", 0], 3],
    [["fields", 0, "id"], 3],
    [["fields", 0, "show_if", "field"], 7],
    [["fields", 1, "id"], 9],
    [["fields", 1, "label"], 10],
    [["settings", "submit_label"], 12],
    // the deepest ancestor found
    [["fields", 0, "options", 1], 5],
    [["fields", 5, "label"], 2],
    [["nothing"], null],
  ])("finds %j at line %s", (path, line) => {
    expect(locateLine(doc, path as PropertyKey[])).toBe(line);
  });

  it("locates every key of a long header from one reading", () => {
    const n = 12_720;
    const text = `fields:\n${Array.from({ length: n }, (_, i) => `  f${i}: {label: x}`).join("\n")}`;
    const locate = yamlLocator(text);
    for (let i = 0; i < n; i += 97) expect(locate(["fields", `f${i}`, "label"])).toBe(i + 2);
    expect(locate(["fields", "f12719"])).toBe(n + 1);
  });
});
