import { describe, expect, it } from "vitest";
import { ASCII, bar, sparkline, speaksUtf8, UNICODE, wantsColour } from "./terminal-charts.ts";

describe("terminal charts", () => {
  it("draws a sparkline scaled to its largest value", () => {
    expect(sparkline([0, 1, 2, 4, 8], UNICODE)).toBe("▁▂▃▅█");
    expect(sparkline([0, 0, 0], UNICODE)).toBe("▁▁▁");
    expect(sparkline([0, 8], ASCII)).toBe("_#");
  });

  it("draws bars in eighths with unicode and whole cells in ASCII, a lighter tail for the rest", () => {
    expect(bar(5, 10, 10, UNICODE)).toBe("█████");
    expect(bar(1, 16, 10, UNICODE)).toBe("▋");
    expect(bar(5, 10, 10, ASCII, 10)).toBe("#####-----");
    expect(bar(0, 0, 10, ASCII)).toBe("");
  });

  it("reads UTF-8 from the locale and refuses colour off a terminal or with NO_COLOR", () => {
    expect(speaksUtf8({ LANG: "en_US.UTF-8" }, "linux")).toBe(true);
    expect(speaksUtf8({ LC_ALL: "C", LANG: "en_US.UTF-8" }, "linux")).toBe(false);
    expect(speaksUtf8({}, "linux")).toBe(false);
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
    expect(wantsColour(true, { NO_COLOR: "1" })).toBe(false);
  });
});
