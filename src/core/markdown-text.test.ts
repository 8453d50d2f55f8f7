import { describe, expect, it } from "vitest";
import { markdownText } from "./markdown-text.ts";

describe("markdownText", () => {
  it("drops the syntax and keeps the words, lines and links", () => {
    expect(
      markdownText(
        "# Danke\n\nThanks **Jürgen Groß**, *see* `you`.\nSecond line\n\n- one\n- two\n\n[Map](https://x.test/m)",
      ),
    ).toBe(
      "Danke\n\nThanks Jürgen Groß, see you.\nSecond line\n\n• one\n• two\n\nMap (https://x.test/m)",
    );
  });
  it("answers nothing for nothing", () => {
    expect(markdownText(undefined)).toBe("");
  });
});
