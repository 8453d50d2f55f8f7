import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "./did-you-mean.ts";

describe("did you mean", () => {
  it("counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
    expect(editDistance("txt", "text")).toBe(1);
    expect(editDistance("requried", "required")).toBe(1);
    expect(editDistance("contcat", "contact")).toBe(1);
    expect(editDistance("radio", "ratio")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("suggests the closest name, and nothing when every name is far", () => {
    expect(closest("txt", ["email", "text", "textarea"])).toBe("text");
    expect(closest("submision", ["submissions", "stats", "list"])).toBe("submissions");
    expect(closest("zebra", ["text", "email"])).toBeNull();
    expect(didYouMean("requred", ["required", "label"])).toBe(' (did you mean "required"?)');
    expect(didYouMean("colour", ["title"])).toBe("");
  });

  it("answers max + 1 for any distance over max, and the distance itself within it", () => {
    // the full table, as it was computed before the cut-off, on words of a few letters
    const full = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      return d[a.length]![b.length]!;
    };
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const word = () => Array.from({ length: next(7) }, () => "abc"[next(3)]).join("");
    for (let k = 0; k < 2000; k++) {
      const [a, b, max] = [word(), word(), k % 4];
      expect(editDistance(a, b), `${a} ${b}`).toBe(full(a, b));
      expect(editDistance(a, b, max), `${a} ${b} ${max}`).toBe(Math.min(full(a, b), max + 1));
    }
  });
});
