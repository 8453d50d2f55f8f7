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
});
