// The deliveries queue: claim due rows, record what each attempt did. Both are one statement for
// a whole batch, so a busy sender costs the database two statements per batch, not per delivery.
import type { Db } from "../db/db.ts";

export interface Claimed {
  id: string;
  webhook_id: string;
  event: "response.created" | "response.deleted" | "webhook.test";
  response_id: string | null;
  attempts: number;
  created_at: string;
  url: string;
  secret: string;
  form_id: string;
  slug: string;
  title: string;
  quiz: boolean;
  submitted_at: string | null;
  payload: Record<string, unknown> | null;
  score: unknown;
  commit_sha: string | null;
}

/**
 * Takes up to `limit` due deliveries and leases them for `leaseSeconds` (the attempt's deadline
 * and some slack): a sender that dies mid-attempt leaves them to be taken again once the lease
 * runs out, so nothing is lost (at least once). `for update skip locked` on Postgres keeps
 * concurrent drains from taking the same row.
 */
export function claimDeliveries(db: Db, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  const lock = db.kind === "postgres" ? "for update of d skip locked" : "";
  return db.query<Claimed>(
    `with due as (
       select d.id from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at <= now()
          and exists (select 1 from webhooks w where w.id = d.webhook_id)
        order by d.next_attempt_at limit $1 ${lock}
     ), claimed as (
       update webhook_deliveries d set attempts = d.attempts + 1,
              next_attempt_at = now() + make_interval(secs => $2)
         from due where d.id = due.id
       returning d.id, d.webhook_id, d.event, d.response_id, d.attempts, d.created_at
     )
     select c.id, c.webhook_id, c.event, c.response_id, c.attempts, c.created_at, w.url, w.secret,
            f.id as form_id, f.slug, f.title, f.type = 'quiz' as quiz,
            r.submitted_at, r.payload, r.score, r.commit_sha
       from claimed c join webhooks w on w.id = c.webhook_id join forms f on f.id = w.form_id
       left join responses r on r.id = c.response_id and c.event = 'response.created'`,
    [limit, leaseSeconds],
  );
}

export interface Outcome {
  id: string;
  status: "delivered" | "pending" | "failed";
  httpStatus: number | null;
  error: string | null;
  /** Seconds until the next attempt (pending only). */
  retryIn: number;
}

/** Writes the outcomes of a batch of attempts in one statement. */
export async function recordOutcomes(db: Db, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db.query(
    `update webhook_deliveries d set status = x.status, last_status = x.http_status,
            last_error = x.error,
            next_attempt_at = case when x.status = 'pending' then now() + make_interval(secs => x.retry_in)
                                   else d.next_attempt_at end,
            delivered_at = case when x.status = 'delivered' then now() else d.delivered_at end
       from unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::float8[])
         as x(id, status, http_status, error, retry_in)
      where d.id = x.id`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.httpStatus),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.retryIn),
    ],
  );
}

/** What a failed attempt leads to: the next wait from the schedule, or `failed` after the last. */
export function afterFailure(
  attempts: number,
  backoff: number[],
): Pick<Outcome, "status" | "retryIn"> {
  const wait = backoff[attempts - 1];
  return wait === undefined
    ? { status: "failed", retryIn: 0 }
    : { status: "pending", retryIn: wait };
}

/**
 * Removes pending deliveries whose webhook is gone: a submit in flight while its webhook was
 * deleted can still write one after the delete's trigger ran. The claim skips them; this keeps
 * them from piling up at the head of the queue.
 */
export function sweepOrphans(db: Db): Promise<unknown> {
  return db.query(
    `delete from webhook_deliveries d where d.status = 'pending' and d.next_attempt_at <= now()
        and not exists (select 1 from webhooks w where w.id = d.webhook_id)`,
  );
}
