import { describe, expect, it } from "vitest";
import { parseCondition, whereParam } from "./where.ts";

describe("--where", () => {
  it("reads each operator, the longest first", () => {
    expect(parseCondition("recommend<=6")).toEqual({ field: "recommend", op: "lte", value: 6 });
    expect(parseCondition("recommend<6")).toEqual({ field: "recommend", op: "lt", value: 6 });
    expect(parseCondition("plan!=Pro")).toEqual({ field: "plan", op: "neq", value: "Pro" });
    expect(parseCondition("fix~billing page")).toEqual({
      field: "fix",
      op: "contains",
      value: "billing page",
    });
    expect(parseCondition("uses[]=Billing")).toEqual({
      field: "uses",
      op: "includes",
      value: "Billing",
    });
    expect(parseCondition("uses[]!=Billing").op).toBe("excludes");
    expect(parseCondition("fix?")).toEqual({ field: "fix", op: "answered" });
    expect(parseCondition("fix!?")).toEqual({ field: "fix", op: "unanswered" });
    expect(parseCondition("submitted_at>=2026-11-01").value).toBe("2026-11-01");
  });

  it("keeps a quoted value as text, and reads true/false", () => {
    expect(parseCondition('zip="06100"').value).toBe("06100");
    expect(parseCondition("ok=true").value).toBe(true);
  });

  it("refuses a condition without a field or an operator", () => {
    expect(() => parseCondition("<=6")).toThrow(/start with a field id/);
    expect(() => parseCondition("recommend 6")).toThrow(/write field=value/);
  });

  it("sends every flag as one JSON where", () => {
    expect(whereParam(undefined)).toBeUndefined();
    const q = whereParam(["recommend<=6", "fix~billing"]);
    expect(JSON.parse(q!)).toEqual([
      { field: "recommend", op: "lte", value: 6 },
      { field: "fix", op: "contains", value: "billing" },
    ]);
  });
});
