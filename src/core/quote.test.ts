import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quote, quoteText } from "./quote.ts";

describe("quoteText", () => {
  it("words a string exactly as quote does: short, cut at 200, escapes counted", () => {
    for (const s of ["", "a", '"', "x".repeat(200), "x".repeat(201), "\n".repeat(150)])
      expect(quoteText(s)).toBe(quote(s));
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (s) => quoteText(s) === quote(s)));
  });
});
