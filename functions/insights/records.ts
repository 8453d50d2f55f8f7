import type { AppContext } from "../context.ts";
import type { Range } from "../services/responses.ts";

export interface StoredRecord {
  id: string;
  submitted_at: string;
  payload: Record<string, unknown>;
  score: unknown;
}

/**
 * Every matching response, newest first, fetched in batches by keyset (submitted_at, id) over
 * the (form_id, submitted_at desc, id desc) index: memory stays flat however many there are, and
 * no transaction or cursor is held open between batches (pooler safe).
 */
export async function* recordBatches(
  ctx: AppContext,
  formId: string,
  range: Range,
  batch = 1000,
): AsyncGenerator<StoredRecord[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const rows: StoredRecord[] = await ctx.db.query<StoredRecord>(
      `select id, submitted_at, payload, score from responses
        where form_id = $1 and ($2::timestamptz is null or submitted_at >= $2)
          and ($3::timestamptz is null or submitted_at < $3)
          and ($4::timestamptz is null or (submitted_at, id) < ($4::timestamptz, $5::uuid))
        order by submitted_at desc, id desc limit $6`,
      [formId, range.since, range.until, after?.at ?? null, after?.id ?? null, batch],
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.submitted_at, id: last.id };
  }
}
