import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { inPeriod, type Range } from "../services/responses.ts";
import { whereSql } from "../services/where/sql.ts";

export interface StoredRecord {
  id: string;
  submitted_at: string;
  payload: Record<string, unknown>;
  score: unknown;
  version: number | null;
  test: boolean;
  /** The language the respondent read (SPEC §20); null before languages were recorded. */
  lang: string | null;
  /** The ending reached and the variables' values (SPEC §24); null on forms without. */
  ending?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * Every matching response, newest first, fetched in batches by keyset (submitted_at, id) over
 * the (form_id, submitted_at desc, id desc) index: memory stays flat however many there are, and
 * no transaction or cursor is held open between batches (pooler safe). The cursor carries the
 * timestamp to the microsecond, as Postgres stores it, and travels as text: a JavaScript Date
 * keeps milliseconds (and postgres.js passes any timestamptz parameter through one), and a cursor
 * cut to them skipped every row of the same millisecond below it — all the rows of one batched
 * INSERT share their transaction's timestamp.
 */
export async function* recordBatches(
  ctx: AppContext,
  formId: string,
  range: Range,
  batch = 1000,
  withTest = false,
  where: readonly WhereCondition[] = [],
): AsyncGenerator<StoredRecord[]> {
  let after: { at: string; id: string } | null = null;
  // a filter (SPEC §18) narrows each batch in the database; the keyset walk stays the same
  const filter = whereSql(where, 7);
  for (;;) {
    const rows: (StoredRecord & { cursor_at: string })[] = await ctx.db.query(
      `select id, submitted_at, version, lang, payload, score, test, ending, variables,
              to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
         from responses
        where ${inPeriod(withTest)}
          and ($4::text is null or (submitted_at, id) < ($4::text::timestamptz, $5::uuid))
          and ${filter.text}
        order by submitted_at desc, id desc limit $6`,
      [
        formId,
        range.since,
        range.until,
        after?.at ?? null,
        after?.id ?? null,
        batch,
        ...filter.params,
      ],
    );
    if (rows.length === 0) return;
    yield rows.map(({ cursor_at: _, ...r }) => r);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursor_at, id: last.id };
  }
}
