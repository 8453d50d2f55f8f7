import { describe, expect, it } from "vitest";
import { isZeroCommit, rawOption } from "./raw-option.ts";

describe("an option's value as typed", () => {
  it("keeps a commit id of digits alone as text, zeros included; the last one given wins", () => {
    const zero = "0000000000000000000000000000000000000000";
    expect(rawOption(["deploy", "--since", zero], "--since")).toBe(zero);
    expect(rawOption(["deploy", `--since=0123456`], "--since")).toBe("0123456");
    expect(rawOption(["--since", "a", "--since", "b"], "--since")).toBe("b");
    expect(rawOption(["deploy", "--", "--since", "x"], "--since")).toBeUndefined();
    expect(rawOption(["deploy"], "--since")).toBeUndefined();
  });

  it("knows git's all-zeros commit (sha-1 and sha-256), and nothing else", () => {
    expect(isZeroCommit("0".repeat(40))).toBe(true);
    expect(isZeroCommit("0".repeat(64))).toBe(true);
    expect(isZeroCommit("0")).toBe(false);
    expect(isZeroCommit(`1${"0".repeat(39)}`)).toBe(false);
  });
});
