// Hostile form definitions (SPEC §19), shared by the tests and bench/hostile.ts: each one is what an
// attacker tried, and the largest form that still validates.
import { MAX_FIELDS, MAX_OPTIONS } from "../../src/core/form-bounds.ts";

/**
 * A ~750-byte form file whose show_if value, expanded, is 9^9 strings (a YAML "billion laughs"):
 * js-yaml shares the aliased lists, so it parses in microseconds; anything that walks it does not.
 */
export function aliasBombFile(levels = 9): string {
  const names = "abcdefghijklmnop".slice(0, levels).split("");
  const lines = names.map((n, i) =>
    i === 0
      ? `        - &${n} ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`
      : `        - &${n} [${Array(9)
          .fill(`*${names[i - 1]}`)
          .join(",")}]`,
  );
  return [
    "---",
    "title: Bomb",
    "slug: bomb",
    "humanness: false",
    "fields:",
    "  - id: a",
    "    type: text",
    "  - id: b",
    "    type: text",
    "    show_if:",
    "      field: a",
    "      op: eq",
    "      value:",
    ...lines,
    "---",
    "",
  ].join("\n");
}

/** A scale of 200,000 points: each page render drew every one. */
export const hugeScale = {
  title: "Huge scale",
  slug: "huge-scale",
  humanness: false,
  fields: [{ id: "s", type: "scale", min: 0, max: 200_000 }],
};

/**
 * The heaviest form that validates: as many fields of as many options as the size bound lets
 * through (`fields` × `options` radio buttons), each option a short distinct label.
 */
export function largestForm(fields = MAX_FIELDS, options = MAX_OPTIONS) {
  return {
    title: "Largest",
    slug: "largest",
    humanness: false,
    fields: Array.from({ length: fields }, (_, i) => ({
      id: `f${i}`,
      type: "radio",
      options: Array.from({ length: options }, (_, k) => `${k}`),
    })),
  };
}
