// Retention as code (SPEC §25): every form whose file says `settings.retention_days: N` loses the
// responses older than N days (their uploads, pending deliveries and emails with them;
// `response.deleted` told to the webhooks that want it), once a UTC day, by whichever instance
// or drain claims the day first (table upkeep_runs): the claim and the first batch's deletion are
// one statement, so two drains at once delete once, and a run that fails leaves the day unclaimed.
// The claimer deletes the rest a batch at a time, letting the event loop turn between batches:
// one statement for the whole day held PGlite's loop 15 s for one account's 20,000 responses
// with ten `response.deleted` webhooks (200,000 deliveries written in that statement). Rows are
// found by their ids (`= any(array(…))`), so a batch probes indexes rather than scanning every
// response or every pending delivery of the server.
import type { AppContext } from "../context.ts";
import { inBatches } from "../db/prune.ts";
import { ownTurn } from "../http/body.ts";
import { wakeWebhookSender } from "../webhooks/handover.ts";
import { purgePartials } from "./partials.ts";

/** Responses deleted by one statement (each with at most 10 webhooks' `response.deleted`). */
export const RETENTION_BATCH = 200;

/** $1: the batch; $2: the day is this run's already (a later batch), so nothing is claimed. */
const RUN = `with claim as (
    insert into upkeep_runs (job, day) select 'retention', (now() at time zone 'utc')::date where not $2::boolean
    on conflict do nothing returning day),
  gone as (
    delete from responses where id = any(array(
      select r.id from responses r join forms f on f.id = r.form_id
       where ($2::boolean or exists (select 1 from claim))
         and jsonb_typeof(f.definition -> 'settings' -> 'retention_days') = 'number'
         and r.submitted_at < now() - make_interval(days => (f.definition -> 'settings' ->> 'retention_days')::int)
       limit $1))
    returning id, form_id),
  files as (delete from uploads where response_id = any(array(select id from gone)) returning storage_key),
  unsent as (delete from webhook_deliveries
              where response_id = any(array(select id from gone)) and event = 'response.created' and status = 'pending'),
  told as (insert into webhook_deliveries (webhook_id, event, response_id)
             select w.id, 'response.deleted', gone.id from gone join webhooks w on w.form_id = gone.form_id
              where 'response.deleted' = any(w.events) returning id)
  select (select count(*) from claim)::int as claimed, (select count(*) from gone)::int as deleted,
         (select count(*) from told)::int as told,
         coalesce((select array_agg(storage_key) from files), '{}') as files`;

export interface RetentionRun {
  /** False: another instance (or an earlier run today) has the day. */
  ran: boolean;
  deleted: number;
}

/** Today's retention run, unless another instance has it; the files go once it has committed. */
export async function enforceRetention(ctx: AppContext): Promise<RetentionRun> {
  const batch = async (claimed: boolean) => {
    const [row] = await ctx.db.query<{
      claimed: number;
      deleted: number;
      told: number;
      files: string[];
    }>(RUN, [RETENTION_BATCH, claimed]);
    for (const key of row?.files ?? []) await ctx.storage.remove(key).catch(() => {});
    if ((row?.told ?? 0) > 0) wakeWebhookSender(ctx);
    return { claimed: row?.claimed ?? 0, deleted: row?.deleted ?? 0 };
  };
  const first = await batch(false);
  const ran = first.claimed > 0;
  if (!ran) return { ran, deleted: 0 };
  // the day is this run's: the rest in batches, each in a turn of the event loop of its own
  let deleted = first.deleted;
  if (first.deleted === RETENTION_BATCH) {
    await ownTurn();
    deleted += await inBatches(RETENTION_BATCH, async () => (await batch(true)).deleted);
  }
  // what the day's run did, for doctor and the curious (a row of this run's own claim)
  await ctx.db.query(
    "update upkeep_runs set deleted = $1 where job = 'retention' and day = (now() at time zone 'utc')::date",
    [deleted],
  );
  // unfinished partial responses past their form's partial_days (SPEC §25), in the same run
  await purgePartials(ctx);
  return { ran, deleted };
}
