// Erasing responses (SPEC §12): one by id, or every one in a time range, 200 to a statement; each
// statement also removes their upload records, pending response.created deliveries and (through
// the outbox's cascade) their emails, and queues `response.deleted` for the webhooks that want it.
// The uploaded files themselves are removed from storage once their statement has committed.
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { inBatches } from "../db/prune.ts";
import { wakeWebhookSender } from "../webhooks/handover.ts";
import type { Account } from "./accounts.ts";
import { ownedFormHead } from "./form-view.ts";
import { type Range, testAnswers } from "./responses.ts";
import { resolveWhere } from "./where/resolve.ts";
import { whereSql } from "./where/sql.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Responses erased by one statement (each with at most 10 webhooks' `response.deleted`). */
const ERASE_BATCH = 200;

/**
 * `picked` selects the ids of the responses to delete; the rest follows them, `ERASE_BATCH` at a
 * time. $1 is always the form id. One statement for a whole range held PGlite's event loop 36 s
 * for 20,000 responses of a form with ten `response.deleted` webhooks (one admin request).
 */
const erase = (picked: string) => `with gone as (
    delete from responses where id = any(array(${picked} limit ${ERASE_BATCH})) returning id),
  files as (delete from uploads where response_id = any(array(select id from gone)) returning storage_key),
  unsent as (delete from webhook_deliveries
              where response_id = any(array(select id from gone)) and event = 'response.created' and status = 'pending'),
  told as (insert into webhook_deliveries (webhook_id, event, response_id)
             select w.id, 'response.deleted', gone.id from gone join webhooks w on w.form_id = $1
              where 'response.deleted' = any(w.events) returning id)
  select (select count(*) from gone)::int as deleted, (select count(*) from told)::int as told,
         coalesce((select array_agg(storage_key) from files), '{}') as files`;

/** Runs `erase` until a batch comes back short, each batch in a turn of the event loop of its own. */
async function run(ctx: AppContext, text: string, params: unknown[]): Promise<number> {
  return inBatches(ERASE_BATCH, async () => {
    const [row] = await ctx.db.query<{ deleted: number; told: number; files: string[] }>(
      text,
      params,
    );
    for (const key of row?.files ?? []) await ctx.storage.remove(key).catch(() => {});
    if ((row?.told ?? 0) > 0) wakeWebhookSender(ctx);
    return row?.deleted ?? 0;
  });
}

/** Deletes one response; a second delete (or an unknown id) is 404. */
export async function deleteResponse(ctx: AppContext, account: Account, slug: string, id: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const deleted = UUID.test(id)
    ? await run(ctx, erase("select id from responses where form_id = $1 and id = $2"), [
        form.id,
        id,
      ])
    : 0;
  // an unfinished partial response is erasable like a response (SPEC §25)
  const partial =
    deleted === 0 && UUID.test(id)
      ? await ctx.db.query("delete from partials where form_id = $1 and id = $2 returning id", [
          form.id,
          id,
        ])
      : [];
  if (deleted === 0 && partial.length === 0) raise("not_found", "No such response.");
}

/**
 * Deletes every response in [since, until) that meets `where` (SPEC §18: the responses
 * list_responses shows for the same filter, so test answers only `withTest`); at least one bound
 * or condition is required.
 */
export async function deleteResponses(
  ctx: AppContext,
  account: Account,
  slug: string,
  range: Range,
  where: unknown = undefined,
  withTest = false,
) {
  const form = await ownedFormHead(ctx, account, slug);
  const conditions = await resolveWhere(ctx, form, where);
  const filter = whereSql(conditions, 4);
  if (range.since === null && range.until === null && conditions.length === 0)
    raise(
      "invalid_param",
      "Give since, until and/or where; to delete every response, delete the form (DELETE /api/forms/{slug}).",
    );
  // a time range alone erases test answers too, as it always has; a filter reads like the list
  const test = conditions.length > 0 ? testAnswers(withTest) : "true";
  const deleted = await run(
    ctx,
    erase(`select id from responses where form_id = $1 and ${test} and ${filter.text}
             and ($2::timestamptz is null or submitted_at >= $2) and ($3::timestamptz is null or submitted_at < $3)`),
    [form.id, range.since, range.until, ...filter.params],
  );
  return { deleted };
}

/** Rows of a deleted form removed by one statement before the form's own (cascading) delete. */
const EMPTY_BATCH = 2000;

/**
 * Empties a form about to be deleted: its responses and its webhooks' deliveries, a batch at a
 * time, each in a turn of the event loop of its own. The form's delete cascades to both in one
 * statement: 50,000 responses held PGlite's loop 1.4 s in one request, a large delivery log more.
 */
export async function emptyForm(ctx: AppContext, formId: string): Promise<void> {
  const batches = [
    "delete from responses where id = any(array(select id from responses where form_id = $1 limit $2))",
    `delete from webhook_deliveries where id = any(array(
       select d.id from webhooks w join webhook_deliveries d on d.webhook_id = w.id where w.form_id = $1 limit $2))`,
  ];
  for (const statement of batches)
    await inBatches(EMPTY_BATCH, async () => {
      const [row] = await ctx.db.query<{ n: number }>(
        `with gone as (${statement} returning 1) select count(*)::int as n from gone`,
        [formId, EMPTY_BATCH],
      );
      return row?.n ?? 0;
    });
}
