import { expect, it, describe as suite } from "vitest";
import { describe } from "./description.ts";

suite("the page's meta description", () => {
  it("is the body's first paragraph as plain text", () => {
    const body = "## Hello\n\n**Tell us** what you think of [our app](https://x.example).\n\nMore.";
    expect(describe("Survey", body)).toBe("Hello");
    expect(describe("Survey", "Tell **us** about [it](https://x.example), {field:name}.")).toBe(
      "Tell us about it, .",
    );
  });

  it("falls back to the title and stays within 160 characters at a word's end", () => {
    expect(describe("Quick feedback", undefined)).toBe("Quick feedback");
    expect(describe("Quick feedback", "  \n\n ")).toBe("Quick feedback");
    const long = describe("t", "word ".repeat(60));
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith("word…")).toBe(true);
  });
});
