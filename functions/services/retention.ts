// Retention as code (SPEC §25): every form whose file says `settings.retention_days: N` loses the
// responses older than N days (their uploads, pending deliveries and emails with them;
// `response.deleted` told to the webhooks that want it), once a UTC day, by whichever instance
// or drain claims the day first (table upkeep_runs): the claim and the deletion are one
// statement, so two drains at once delete once, and a run that fails leaves the day unclaimed.
import type { AppContext } from "../context.ts";
import { wakeWebhookSender } from "../webhooks/handover.ts";
import { purgePartials } from "./partials.ts";

const RUN = `with claim as (
    insert into upkeep_runs (job, day) values ('retention', (now() at time zone 'utc')::date)
    on conflict do nothing returning day),
  gone as (
    delete from responses r using forms f
     where f.id = r.form_id and exists (select 1 from claim)
       and jsonb_typeof(f.definition -> 'settings' -> 'retention_days') = 'number'
       and r.submitted_at < now() - make_interval(days => (f.definition -> 'settings' ->> 'retention_days')::int)
    returning r.id, r.form_id),
  files as (delete from uploads where response_id in (select id from gone) returning storage_key),
  unsent as (delete from webhook_deliveries
              where response_id in (select id from gone) and event = 'response.created' and status = 'pending'),
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
  const [row] = await ctx.db.query<{
    claimed: number;
    deleted: number;
    told: number;
    files: string[];
  }>(RUN);
  const ran = (row?.claimed ?? 0) > 0;
  // what the day's run did, for doctor and the curious (a row of this statement's own claim)
  if (ran)
    await ctx.db.query(
      "update upkeep_runs set deleted = $1 where job = 'retention' and day = (now() at time zone 'utc')::date",
      [row!.deleted],
    );
  for (const key of row?.files ?? []) await ctx.storage.remove(key).catch(() => {});
  // unfinished partial responses past their form's partial_days (SPEC §25), in the same run
  if (ran) await purgePartials(ctx);
  if ((row?.told ?? 0) > 0) wakeWebhookSender(ctx);
  return { ran, deleted: row?.deleted ?? 0 };
}
