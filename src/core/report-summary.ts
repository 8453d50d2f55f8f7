import type { Field } from "./field-schema.ts";
import { optionValue } from "./options.ts";

/** Per-field tallies, filled from SQL aggregates (they grow with distinct values, not rows). */
export interface Tally {
  answered: number;
  counts: Map<string, number>;
  numbers: Map<number, number>;
  ranks: Map<string, number>;
  matrix: Map<string, Map<string, number>>;
  recent: string[];
  /** Beside each recent answer, the same respondent's answers to the form's key fields. */
  recentWith: Record<string, unknown>[];
  /** A conditional question: the respondents its path showed it to (SPEC §24). */
  shown?: number;
}

/**
 * "3 of 5 answered (60 %)", or for a conditional question the share of those shown: "2 of 2
 * shown (100 %), 5 respondents" (SPEC §24).
 */
export function answeredLine(
  tally: Tally,
  responses: number,
  say: (key: "answered_of" | "shown_of", values: Record<string, string>) => string,
  count: (n: number) => string,
  pct: (share: number) => string,
): string {
  const of = tally.shown ?? responses;
  return say(tally.shown === undefined ? "answered_of" : "shown_of", {
    answered: count(tally.answered),
    shown: count(of),
    responses: count(responses),
    pct: pct(of === 0 ? 0 : tally.answered / of),
  });
}

export const newTally = (answered = 0): Tally => ({
  answered,
  counts: new Map(),
  numbers: new Map(),
  ranks: new Map(),
  matrix: new Map(),
  recent: [],
  recentWith: [],
});

const KEY_TYPES = new Set(["nps", "rating", "scale", "number", "radio", "select", "yes_no"]);

/**
 * The answers a text answer is read with (a detractor's comment beside their score): the form's
 * first few single-value scores and choices, in form order.
 */
export const keyFields = (fields: readonly Field[], max = 3) =>
  fields.filter((f) => KEY_TYPES.has(f.type)).slice(0, max);

/** `recommend: 3 · role: Product`, for a text answer's line (empty: nothing beside it). */
export const withLine = (answers: Record<string, unknown> | undefined) =>
  Object.entries(answers ?? {})
    .map(([id, v]) => `${id}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
    .join(" · ");

const bump = <K>(m: Map<K, number>, k: K, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

const COUNTED = new Set(["radio", "select", "yes_no", "checkbox", "ranking"]);
const NUMERIC = new Set(["number", "rating", "scale", "nps"]);

/** Fields summarised by counting values (the rest show their most recent answers). */
export const tallied = (field: Field) =>
  COUNTED.has(field.type) || NUMERIC.has(field.type) || field.type === "matrix";

/**
 * One row of the report's SQL aggregate: `v` counts one value (a list's item, with the sum of its
 * 1-based positions); `m` one matrix cell (`sub` the row, `item` the column); `q` a quiz bucket.
 */
export interface AggregateRow {
  field: string;
  kind: "v" | "m" | "q";
  sub: string | null;
  item: string | null;
  n: number;
  pos: number;
}

export function addAggregate(field: Field, tally: Tally, row: AggregateRow): void {
  if (row.item === null || row.kind === "q") return;
  if (row.kind === "m") {
    if (row.sub === null) return;
    if (!tally.matrix.has(row.sub)) tally.matrix.set(row.sub, new Map());
    bump(tally.matrix.get(row.sub)!, row.item, row.n);
  } else if (NUMERIC.has(field.type)) {
    const value = Number(row.item);
    if (Number.isFinite(value)) bump(tally.numbers, value, row.n);
  } else {
    bump(tally.counts, row.item, row.n);
    if (field.type === "ranking") bump(tally.ranks, row.item, row.pos);
  }
}

export const round = (n: number) => Math.round(n * 100) / 100;

export function numberStats(numbers: Map<number, number>) {
  const sorted = [...numbers.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((n, [, c]) => n + c, 0);
  const mean = sorted.reduce((s, [v, c]) => s + v * c, 0) / (total || 1);
  const at = (k: number) => {
    let seen = 0;
    for (const [v, c] of sorted) {
      seen += c;
      if (seen > k) return v;
    }
    return 0;
  };
  const median = total % 2 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
  return { sorted, total, mean: round(mean), median: round(median) };
}

/** NPS from a value distribution: promoters 9–10, passives 7–8, detractors 0–6. */
export function npsFigures(sorted: [number, number][], total: number) {
  const count = (lo: number, hi: number) =>
    sorted.filter(([v]) => v >= lo && v <= hi).reduce((n, [, c]) => n + c, 0);
  const promoters = count(9, 10);
  const detractors = count(0, 6);
  const score = total === 0 ? 0 : Math.round(((promoters - detractors) / total) * 100);
  return { score, promoters, passives: total - promoters - detractors, detractors };
}

const share = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 1000);

/**
 * One field's figures as data, the same numbers the Markdown section shows (SPEC §14): counts
 * and shares for choices, average rank, matrix cells, mean/median/distribution for numbers with
 * the NPS split, and for everything else the text answers kept plus how many more there are.
 */
export function fieldSummary(field: Field, tally: Tally): Record<string, unknown> {
  const base = {
    id: field.id,
    type: field.type,
    label: field.label ?? null,
    answered: tally.answered,
  };
  if (field.type === "ranking") {
    const ranks = field.options
      .map(optionValue)
      .map((o) => ({
        option: o,
        average_rank: round((tally.ranks.get(o) ?? 0) / (tally.answered || 1)),
      }))
      .sort((a, b) => a.average_rank - b.average_rank);
    return { ...base, ranks };
  }
  if ("options" in field || field.type === "yes_no") {
    const options = field.type === "yes_no" ? ["yes", "no"] : field.options.map(optionValue);
    return {
      ...base,
      options: options.map((o) => {
        const count = tally.counts.get(o) ?? 0;
        return { option: o, count, share: share(count, tally.answered) };
      }),
    };
  }
  if (field.type === "matrix") {
    const rows = field.rows.map((r) => ({
      id: r.id,
      label: r.label,
      counts: Object.fromEntries(
        field.columns.map((c) => [c, tally.matrix.get(r.id)?.get(c) ?? 0]),
      ),
    }));
    return { ...base, columns: field.columns, rows };
  }
  if (NUMERIC.has(field.type)) {
    const s = numberStats(tally.numbers);
    const figures = {
      ...base,
      mean: s.total ? s.mean : null,
      median: s.total ? s.median : null,
      min: s.sorted[0]?.[0] ?? null,
      max: s.sorted.at(-1)?.[0] ?? null,
      distribution: s.sorted.map(([value, count]) => ({ value, count })),
    };
    if (field.type !== "nps") return figures;
    const nps = npsFigures(s.sorted, s.total);
    return {
      ...figures,
      nps: {
        ...nps,
        promoter_share: share(nps.promoters, s.total),
        passive_share: share(nps.passives, s.total),
        detractor_share: share(nps.detractors, s.total),
      },
    };
  }
  return {
    ...base,
    answers: tally.recent,
    // each answer's respondent's key answers, in the same order (absent: none to show)
    ...(tally.recentWith.some((w) => Object.keys(w).length > 0)
      ? { answered_with: tally.recentWith }
      : {}),
    more: Math.max(0, tally.answered - tally.recent.length),
  };
}
