import { describe, expect, it } from "vitest";
import { carryOver, diffLines } from "./line-diff.ts";

describe("line diffs", () => {
  it("finds the replaced, inserted and deleted lines", () => {
    expect(diffLines(["a", "b", "c"], ["a", "B", "c", "d"])).toEqual([
      { from: 1, to: 2, lines: ["B"] },
      { from: 3, to: 3, lines: ["d"] },
    ]);
    expect(diffLines(["a", "b"], ["b"])).toEqual([{ from: 0, to: 1, lines: [] }]);
  });

  it("carries a change over onto the original, keeping the original's own spelling elsewhere", () => {
    const original = "list: [a, b]\ntitle: Old\nmap: {x: 1}";
    const before = "list: [ a, b ]\ntitle: Old\nmap: { x: 1 }";
    const after = "list: [ a, b ]\ntitle: New\nmap: { x: 1 }";
    expect(carryOver(original, before, after)).toBe("list: [a, b]\ntitle: New\nmap: {x: 1}");
  });

  it("changes a re-printed line only where the value changed, comments and spacing kept", () => {
    const original = "map: {x: 1}    # note";
    expect(carryOver(original, "map: { x: 1 } # note", "map: { x: 2 } # note")).toBe(
      "map: {x: 2}    # note",
    );
  });

  it("gives the original back when nothing changed, and the new text when nothing was re-printed", () => {
    expect(carryOver("a:  1", "a: 1", "a: 1")).toBe("a:  1");
    expect(carryOver("a: 1", "a: 1", "a: 2")).toBe("a: 2");
  });
});
