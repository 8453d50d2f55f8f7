import { assertNever } from "../errors.ts";
import type { ReportLocale } from "../report-locale.ts";
import type { WhereCondition } from "./where.ts";

const SYMBOL = { eq: "=", neq: "≠", gt: ">", lt: "<", gte: "≥", lte: "≤" } as const;

function shown(value: unknown, l: ReportLocale): string {
  if (typeof value === "number") return l.num(value);
  if (typeof value === "string") return `“${value}”`;
  return JSON.stringify(value);
}

/** One condition in the report's words: `recommend ≤ 6`, `fix contains “billing”`. */
export function describeCondition(c: WhereCondition, l: ReportLocale): string {
  const field = c.field;
  switch (c.op) {
    case "eq":
    case "neq":
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      if (c.on === "submitted_at") return `${field} ${SYMBOL[c.op]} ${l.dateTime(c.value)}`;
      return `${field} ${SYMBOL[c.op]} ${shown(c.value, l)}`;
    case "contains":
    case "includes":
    case "excludes":
      return l.say(`where_${c.op}`, { field, value: shown(c.value, l) });
    case "answered":
    case "unanswered":
      return l.say(`where_${c.op}`, { field });
    default:
      return assertNever(c);
  }
}

/** A segment's line (SPEC §18): "7 responses where recommend ≤ 6 and fix contains “billing”". */
export function describeSegment(
  where: WhereCondition[],
  responses: number,
  l: ReportLocale,
): string {
  return l.say(l.one(responses) ? "segment_one" : "segment_other", {
    n: l.count(responses),
    where: where.map((c) => describeCondition(c, l)).join(l.t.where_and),
  });
}

/**
 * The report's heading: its title, and for a segment which responses it counts
 * ("NPS — responses report — 7 responses where recommend ≤ 6").
 */
export function reportHeading(
  d: { title: string; responses: number; segment?: WhereCondition[] | undefined },
  l: ReportLocale,
): string {
  const title = l.say("report_title", { title: d.title });
  return d.segment && d.segment.length > 0
    ? `${title} — ${describeSegment(d.segment, d.responses, l)}`
    : title;
}
