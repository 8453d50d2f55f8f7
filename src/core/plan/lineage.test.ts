import { describe, expect, it } from "vitest";
import { formSchema } from "../schema.ts";
import { carry, lineage } from "./lineage.ts";

const form = (fields: unknown[]) => formSchema.parse({ title: "Pulse", slug: "pulse", fields });

describe("lineage", () => {
  const v1 = form([
    { id: "fix", type: "text" },
    { id: "plan", type: "radio", options: ["Free", "Pro"] },
    { id: "budget", type: "number" },
  ]);
  const v2 = form([
    { id: "fix_first", type: "text", formerly: ["fix"] },
    { id: "plan", type: "radio", options: [{ label: "Starter", formerly: ["Free"] }, "Pro"] },
    { id: "budget", type: "number" },
  ]);
  // fix_first renamed again, budget removed
  const v3 = form([
    { id: "first_fix", type: "text", formerly: ["fix_first"] },
    { id: "plan", type: "radio", options: [{ label: "Basic", formerly: ["Starter"] }, "Pro"] },
  ]);

  it("follows formerly across versions to the live id, and retires what nothing carries on", () => {
    const l = lineage(v3, [v1, v2]);
    expect(l.keys.get("first_fix")).toEqual(["first_fix", "fix_first", "fix"]);
    expect(l.options.get("plan")).toEqual(
      new Map([
        ["Starter", "Basic"],
        ["Free", "Basic"],
      ]),
    );
    expect(l.retired.map((f) => f.id)).toEqual(["budget"]);
    expect(l.maps).toBe(true);
  });

  it("reads an old payload under the live ids and labels, keeping retired answers as stored", () => {
    const l = lineage(v3, [v1, v2]);
    expect(carry({ fix: "speed", plan: "Free", budget: 40, _hidden: { s: "x" } }, l)).toEqual({
      first_fix: "speed",
      plan: "Basic",
      budget: 40,
      _hidden: { s: "x" },
    });
    expect(carry({ first_fix: "new", plan: "Pro" }, l)).toEqual({ first_fix: "new", plan: "Pro" });
  });

  it("changes nothing for a form that never changed", () => {
    const l = lineage(v1, []);
    expect(l.maps).toBe(false);
    const p = { fix: "a" };
    expect(carry(p, l)).toBe(p);
  });
});
