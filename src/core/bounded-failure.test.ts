import { describe, expect, it } from "vitest";
import { boundedFailure, MAX_ERROR_BYTES } from "./bounded-failure.ts";

const size = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe("an error answer's bounds (SPEC §23)", () => {
  it("lists at most 100 details and counts the rest in its sentence", () => {
    const details = Array.from({ length: 91_920 }, (_, i) => ({ field: `k${i}`, message: "bad" }));
    const out = boundedFailure({ code: "validation_failed", error: "Bad.", details });
    expect(out.details).toHaveLength(100);
    expect(out.error).toBe("Bad. (100 listed, …and 91,820 more)");
  });

  it("stays within 64 KB however long each detail is", () => {
    const long = "ü".repeat(50_000);
    const details = Array.from({ length: 100 }, () => ({ field: long, message: long }));
    const out = boundedFailure({ code: "invalid_request", error: long, details });
    expect(size({ error: out.error, code: out.code, details: out.details })).toBeLessThan(
      MAX_ERROR_BYTES,
    );
    expect(out.details!.length).toBeGreaterThan(10);
    expect(out.error).toMatch(/…and \d+ more\)$/);
  });

  it("leaves a small failure as it is", () => {
    const failure = { code: "not_found" as const, error: "No such form." };
    expect(boundedFailure(failure)).toBe(failure);
    const details = [{ field: "a", message: "is required" }];
    expect(boundedFailure({ code: "validation_failed", error: "1.", details })).toEqual({
      code: "validation_failed",
      error: "1.",
      details,
    });
  });
});
