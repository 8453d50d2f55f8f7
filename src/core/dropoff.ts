import type { Field } from "./field-schema.ts";

export interface FunnelStep {
  field: string;
  /** Respondents who got at least this far (their page said so, or they answered it). */
  reached: number;
  /** Responses that answered it. */
  answered: number;
}

/** Fields a respondent can answer (a statement only shows text). */
export const answerable = (fields: readonly Field[]) =>
  fields.filter((f) => f.type !== "statement");

/**
 * The drop-off funnel in form order (SPEC §13). The page sends one progress beacon for each
 * question a respondent reaches (every visible question up to the furthest, each once), so
 * `reached` counts the beacons of a field; a response that answered the field reached it too,
 * which covers answers that came without a page (the API, a blocked beacon).
 */
export function dropoffFunnel(
  fields: readonly Field[],
  reached: ReadonlyMap<string, number>,
  answered: ReadonlyMap<string, number>,
): FunnelStep[] {
  return answerable(fields).map((f) => {
    const n = answered.get(f.id) ?? 0;
    return { field: f.id, reached: Math.max(reached.get(f.id) ?? 0, n), answered: n };
  });
}
