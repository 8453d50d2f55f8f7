// Deliveries handed over without a row (the embedded database; migration
// …000200_webhook_handed_over): what one needs to be written, the statement that records a batch
// of their outcomes, the deliveries still open (their oldest bounds the mark), and the recovery
// at start-up of those a killed process had been handed.

import { binder } from "../db/bind.ts";
import type { Db } from "../db/db.ts";
import type { Claimed, Outcome } from "./queue.ts";

/** What a delivery handed over without a row needs for one to be written. */
export interface Unwritten {
  webhook_id: string;
  response_id: string;
  created_at: string;
  attempts: number;
}

export const unwrittenRow = (row: Claimed): Unwritten => ({
  webhook_id: row.webhook_id,
  response_id: row.response_id!,
  created_at: row.created_at,
  attempts: row.attempts,
});

/** A delivery handed over without a row that will not be attempted here: due now, as a row. */
export const unattempted = (id: string, delivery: Omit<Unwritten, "attempts">): Outcome => ({
  id,
  status: "pending",
  httpStatus: null,
  error: null,
  retryIn: 0,
  unwritten: { ...delivery, attempts: 0 },
});

/** An array literal of uuids or numbers, none of which needs quoting: PGlite's own serializer escapes each. */
const arrayText = (items: readonly (string | number)[]) => `{${items.join(",")}}`;

/**
 * The outcomes of deliveries handed over without a row (migration …000200_webhook_handed_over),
 * in one statement: those that got through become one place each in a row per webhook of
 * `webhook_delivered` (the response, its instant in ms, the HTTP status: an id is derived from
 * webhook and response); any other becomes its row in `webhook_deliveries`, with the id it was
 * sent with. `mark`: every delivery of a response submitted before it is now recorded (less the
 * margin recoverHandedOver allows).
 */
export async function recordUnwritten(
  db: Db,
  outcomes: Outcome[],
  mark: Date | null,
): Promise<void> {
  const params: unknown[] = [];
  const p = binder(params);
  const parts: string[] = [];
  const delivered = new Map<string, Outcome[]>();
  for (const o of outcomes)
    if (o.status === "delivered") {
      const list = delivered.get(o.unwritten!.webhook_id);
      if (list) list.push(o);
      else delivered.set(o.unwritten!.webhook_id, [o]);
    }
  if (delivered.size > 0) {
    const rows = [...delivered].map(
      ([hook, list]) =>
        `(${p(hook)}::uuid, ${p(arrayText(list.map((o) => o.unwritten!.response_id)))}::uuid[], ${p(
          arrayText(list.map((o) => Date.parse(o.unwritten!.created_at))),
        )}::int8[], ${p(arrayText(list.map((o) => o.httpStatus ?? 0)))}::int[])`,
    );
    parts.push(`delivered as (insert into webhook_delivered (webhook_id, response_ids, created_ms, statuses)
      values ${rows.join(", ")})`);
  }
  const rest = outcomes.filter((o) => o.status !== "delivered");
  if (rest.length > 0) {
    const of = <T>(pick: (o: Outcome, u: Unwritten) => T) => rest.map((o) => pick(o, o.unwritten!));
    parts.push(`kept as (
       insert into webhook_deliveries (id, webhook_id, event, response_id, status, attempts,
                                       last_status, last_error, next_attempt_at, created_at)
       select id, webhook_id, 'response.created', response_id, status, attempts, http_status, error,
              now() + make_interval(secs => retry_in), created_at
         from unnest(${p(of((o) => o.id))}::uuid[], ${p(of((_, u) => u.webhook_id))}::uuid[],
                     ${p(of((_, u) => u.response_id))}::uuid[], ${p(of((_, u) => u.created_at))}::timestamptz[],
                     ${p(of((o) => o.status))}::text[], ${p(of((_, u) => u.attempts))}::int[],
                     ${p(of((o) => o.httpStatus))}::int[], ${p(of((o) => o.error))}::text[],
                     ${p(of((o) => o.retryIn))}::float8[])
           as x(id, webhook_id, response_id, created_at, status, attempts, http_status, error, retry_in)
       on conflict (id) do nothing)`);
  }
  if (mark)
    parts.push(`marked as (insert into webhook_handover_mark (through) values (${p(mark.toISOString())})
       on conflict (one) do update set through = greatest(webhook_handover_mark.through, excluded.through))`);
  if (parts.length > 0) await db.query(`with ${parts.join(",\n")} select 1`, params);
}

/** How far before the mark a recovery looks: a submit's commit and its handover, with room. */
const RECOVERY_MARGIN = "1 minute";

/**
 * At the sender's start, before any submit hands it anything: every delivery of a response
 * submitted since the mark (less RECOVERY_MARGIN) that has neither a row nor a place in
 * `webhook_delivered` — handed over to a process that was killed before recording it — is
 * written due, with the id it was (or would have been) sent with; then the mark moves to now.
 * Answers how many were found.
 */
export async function recoverHandedOver(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `with found as (
       insert into webhook_deliveries (id, webhook_id, event, response_id, created_at)
       select webhook_delivery_id(w.id, r.id), w.id, 'response.created', r.id, r.submitted_at
         from webhook_handover_mark m
         cross join webhooks w
         join responses r on r.form_id = w.form_id
          and r.submitted_at >= m.through - interval '${RECOVERY_MARGIN}'
          and r.submitted_at >= w.created_at
        where 'response.created' = any(w.events) and not r.test
          and not exists (select 1 from webhook_deliveries d
                           where d.webhook_id = w.id and d.created_at = r.submitted_at
                             and d.response_id = r.id and d.event = 'response.created')
          and not exists (select 1 from webhook_delivered b
                           where b.webhook_id = w.id and b.recorded_at >= r.submitted_at
                             and r.id = any(b.response_ids))
       on conflict (id) do nothing
       returning 1),
     marked as (
       insert into webhook_handover_mark (through) values (now())
       on conflict (one) do update set through = now())
     select count(*)::int as n from found`,
  );
  return row?.n ?? 0;
}

/**
 * The deliveries handed over without a row, from their handover until their outcome is written:
 * every delivery created before the oldest of them is recorded, so that is as far as the mark
 * may go (now, when none is open).
 */
export function openDeliveries() {
  const open = new Map<string, string>();
  return {
    add(rows: Claimed[]) {
      for (const row of rows) if (row.unwritten) open.set(row.id, row.created_at);
    },
    written(outcomes: Outcome[]) {
      for (const o of outcomes) if (o.unwritten) open.delete(o.id);
    },
    mark(): Date {
      let oldest: string | null = null;
      for (const at of open.values()) if (oldest === null || at < oldest) oldest = at;
      return oldest === null ? new Date() : new Date(oldest);
    },
  };
}
