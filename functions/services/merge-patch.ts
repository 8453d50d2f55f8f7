import type { Form } from "../../src/core/schema.ts";

const NESTED = ["branding", "notifications", "settings", "quiz", "access"] as const;

/** A PATCH body over a definition: only the keys given change; nested objects merge one level deep, arrays replace. */
export function mergePatch(
  definition: Form,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...definition, ...patch };
  for (const key of NESTED) {
    const given = patch[key];
    if (given && typeof given === "object" && !Array.isArray(given))
      merged[key] = { ...definition[key], ...given };
  }
  return merged;
}
