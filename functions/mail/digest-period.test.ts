import { describe, expect, it } from "vitest";
import { lastPeriod } from "./digest-period.ts";

describe("lastPeriod", () => {
  it("is yesterday (UTC) for a daily digest, whatever the hour", () => {
    for (const at of ["2026-11-24T00:00:00Z", "2026-11-24T23:59:59Z"]) {
      const p = lastPeriod("daily", Date.parse(at));
      expect(p.key).toBe("daily:2026-11-23");
      expect(new Date(p.until).toISOString()).toBe("2026-11-24T00:00:00.000Z");
    }
  });

  it("is last Monday to Sunday for a weekly digest", () => {
    // 2026-11-24 is a Tuesday; 2026-11-23 a Monday
    for (const at of ["2026-11-23T00:00:00Z", "2026-11-24T12:00:00Z", "2026-11-29T23:00:00Z"]) {
      const p = lastPeriod("weekly", Date.parse(at));
      expect(p.key).toBe("weekly:2026-11-16");
      expect(new Date(p.until).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    }
    expect(lastPeriod("weekly", Date.parse("2026-11-30T00:00:00Z")).key).toBe("weekly:2026-11-23");
  });
});
