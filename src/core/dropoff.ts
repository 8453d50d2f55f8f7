import type { Field } from "./field-schema.ts";

export interface FunnelStep {
  field: string;
  /** Respondents who got at least this far: the furthest-field beacons at or beyond it, plus responses. */
  reached: number;
  /** Responses that answered it. */
  answered: number;
}

/** Fields a respondent can answer (a statement only shows text). */
export const answerable = (fields: readonly Field[]) =>
  fields.filter((f) => f.type !== "statement");

/**
 * The drop-off funnel in form order (SPEC §13). `furthest` counts the respondents whose furthest
 * field was each field; a beacon at a statement counts for the fields before it. Everyone who
 * submitted reached every field, whether or not the page sent beacons.
 */
export function dropoffFunnel(
  fields: readonly Field[],
  furthest: ReadonlyMap<string, number>,
  answered: ReadonlyMap<string, number>,
  responses: number,
): FunnelStep[] {
  const beyond: number[] = new Array(fields.length + 1).fill(0);
  for (let i = fields.length - 1; i >= 0; i--)
    beyond[i] = beyond[i + 1]! + (furthest.get(fields[i]!.id) ?? 0);
  return fields.flatMap((f, i) =>
    f.type === "statement"
      ? []
      : [{ field: f.id, reached: beyond[i]! + responses, answered: answered.get(f.id) ?? 0 }],
  );
}
