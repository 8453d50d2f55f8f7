// A checkbox's or a ranking's answers are lists. Unnesting every list into its items
// (jsonb_array_elements_text, a set-returning function called once per response) cost 2.2 µs a
// response on PGlite, three times a scalar field's GROUP BY: the report counts the distinct lists
// instead, as the scalar field's values are counted, and adds up their items here. A form's
// respondents give few distinct lists (a checkbox of five options: 32 sets, 326 lists at most in
// the order they were ticked; a ranking of five, 120); where they give many, or a list holds
// anything but text, the items are counted in SQL as before.

import type { Field } from "../../src/core/field-schema.ts";
import type { AggregateRow } from "../../src/core/report-summary.ts";

/** More distinct lists than this, and the items are counted in SQL instead. */
export const DISTINCT_LISTS = 2000;

/** A list field's answers grouped as they are, its id bind parameter `k` (a list or not). */
export const listsOf = (k: string, responses: string, inRange: string) =>
  `select payload -> ${k} as list, count(*)::int as n
     from ${responses} where ${inRange} group by 1 limit ${DISTINCT_LISTS + 1}`;

/** Every item of a list field's answers, with the sum of its 1-based positions. */
export const itemsOf = (k: string, responses: string, inRange: string) =>
  `select ${k} as field, 'v' as kind, null as sub, a.v as item, count(*)::int as n, sum(a.i)::int as pos
      from ${responses}, jsonb_array_elements_text(case when jsonb_typeof(payload -> ${k}) = 'array' then payload -> ${k} else '[]'::jsonb end) with ordinality as a(v, i)
     where ${inRange} group by 4`;

/**
 * The items of the distinct lists, as `itemsOf` would count them: each item as often as it
 * appears, with the sum of its positions; an answer that is not a list counts nothing. Null when
 * the lists cannot stand for the items: too many of them, or an item that is not text (its text
 * would be Postgres' rendering, not JavaScript's).
 */
export function itemsOfLists(
  field: Pick<Field, "id">,
  lists: readonly { list: unknown; n: number }[],
): AggregateRow[] | null {
  if (lists.length > DISTINCT_LISTS) return null;
  const items = new Map<string, AggregateRow>();
  for (const { list, n } of lists) {
    if (!Array.isArray(list)) continue;
    for (const [i, item] of list.entries()) {
      if (typeof item !== "string") return null;
      const row = items.get(item);
      if (row) {
        row.n += n;
        row.pos += (i + 1) * n;
      } else items.set(item, { field: field.id, kind: "v", sub: null, item, n, pos: (i + 1) * n });
    }
  }
  return [...items.values()];
}
