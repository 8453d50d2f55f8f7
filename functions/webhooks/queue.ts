// The deliveries queue: claim due rows, record what each attempt did. Both are one statement for
// a whole batch, so a busy sender costs the database two statements per batch, not per delivery.
import type { Db } from "../db/db.ts";
import { pruneRows } from "../db/prune.ts";
import { recordUnwritten, type Unwritten } from "./handed-over.ts";

interface Leased {
  id: string;
  webhook_id: string;
  event: "response.created" | "response.deleted" | "webhook.test";
  response_id: string | null;
  attempts: number;
  created_at: string;
}

export interface HookInfo {
  url: string;
  secret: string;
  form_id: string;
  slug: string;
  title: string;
  quiz: boolean;
  /** `slack` or `sheet`: a preset from the form file (SPEC §26), with its body (presets.ts). */
  kind?: "event" | "slack" | "sheet";
  /** A preset's questions, for their labels. */
  fields?: { id: string; label?: string; type: string }[] | null;
  /** A preset's variables and endings (SPEC §24), for their labels and titles. */
  logic?: {
    variables?: { id: string; label?: string }[] | null;
    endings?: { id: string; title?: string }[] | null;
  } | null;
}

/** What a delivery's body tells of its response. */
interface ClaimedResponse {
  submitted_at: string | null;
  payload: Record<string, unknown> | null;
  score: unknown;
  commit_sha: string | null;
  /** What the response recorded beside its payload (SPEC §24); null on a form without logic. */
  ending: string | null;
  variables: Record<string, unknown> | null;
}

/** A delivery's response fields when it has none (a test, a deletion). */
export const NO_RESPONSE: ClaimedResponse = {
  submitted_at: null,
  payload: null,
  score: null,
  commit_sha: null,
  ending: null,
  variables: null,
};

/** A claimed delivery with what its attempt needs: the webhook's target and the response. */
export interface Claimed extends Leased, HookInfo, ClaimedResponse {
  /** Handed over without a row (handover.ts withoutRows): its outcome writes one, or a batch's place. */
  unwritten?: true;
}

/** Webhooks by id, per database, for two seconds: a claim need not join them every time. */
const hookCache = new WeakMap<Db, Map<string, { info: HookInfo; until: number }>>();

/** The webhooks of `ids` the cache holds, and the ids it does not. */
function fromCache(db: Db, ids: string[]) {
  let cache = hookCache.get(db);
  if (!cache) {
    cache = new Map();
    hookCache.set(db, cache);
  }
  const now = Date.now();
  const found = new Map<string, HookInfo>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = cache.get(id);
    if (hit && hit.until > now) found.set(id, hit.info);
    else missing.push(id);
  }
  return { cache, now, found, missing };
}

/** The webhooks when all of them are in the cache, without waiting for anything; else null. */
export function cachedHooks(db: Db, ids: string[]): Map<string, HookInfo> | null {
  const { found, missing } = fromCache(db, ids);
  return missing.length === 0 ? found : null;
}

export async function hooks(db: Db, ids: string[]): Promise<Map<string, HookInfo>> {
  const { cache, now, found, missing } = fromCache(db, ids);
  if (missing.length > 0) {
    if (cache.size > 10_000) cache.clear();
    const rows = await db.query<HookInfo & { id: string }>(
      `select w.id, w.url, w.secret, f.id as form_id, f.slug, f.title, f.type = 'quiz' as quiz,
              w.kind, case when w.kind <> 'event' then f.definition->'fields' end as fields,
              case when w.kind <> 'event' then jsonb_build_object('variables',
                f.definition->'variables', 'endings', f.definition->'endings') end as logic
         from webhooks w join forms f on f.id = w.form_id where w.id = any($1::uuid[])`,
      [missing],
    );
    for (const { id, ...info } of rows) {
      cache.set(id, { info, until: now + 2000 });
      found.set(id, info);
    }
  }
  return found;
}

/**
 * Takes up to `limit` due deliveries, at most `perHook` of each webhook's (its receiver's share
 * of the sender's slots) and none of the webhooks in `skip` (their receivers have all the slots
 * they may have), and leases them for `leaseSeconds` (the attempt's deadline and some slack): a
 * sender that dies mid-attempt leaves them to be taken again once the lease runs out, so nothing
 * is lost (at least once). Each webhook is one probe of the `(webhook_id, next_attempt_at)`
 * index, so a hanging receiver's backlog is never walked. `for update skip locked` on Postgres
 * keeps concurrent drains from taking the same row. The claim itself is a plain UPDATE (on
 * PGlite a statement's planning is much of its cost); the webhooks come from a short cache and
 * the responses from one look-up by id. A delivery whose webhook is gone is not taken
 * (sweepOrphans removes it).
 */
export async function claimDeliveries(
  db: Db,
  limit: number,
  leaseSeconds: number,
  skip: string[] = [],
  perHook: number = limit,
): Promise<Claimed[]> {
  const lock = db.kind === "postgres" ? "for update skip locked" : "";
  const leased = await db.query<Leased>(
    `update webhook_deliveries d set attempts = d.attempts + 1,
            next_attempt_at = now() + make_interval(secs => $2)
      where d.id in (
        select q.id from webhooks w cross join lateral (
            select id, next_attempt_at from webhook_deliveries
             where webhook_id = w.id and status = 'pending' and next_attempt_at <= now()
             order by next_attempt_at limit $3 ${lock}) q
         where w.id <> all($4::uuid[])
         order by q.next_attempt_at limit $1)
      returning d.id, d.webhook_id, d.event, d.response_id, d.attempts, d.created_at`,
    [limit, leaseSeconds, perHook, skip],
  );
  if (leased.length === 0) return [];
  const wanted = leased.filter((l) => l.event === "response.created").map((l) => l.response_id);
  const [info, responses] = await Promise.all([
    hooks(
      db,
      leased.map((l) => l.webhook_id),
    ),
    wanted.length === 0
      ? []
      : db.query<ClaimedResponse & { id: string }>(
          "select id, submitted_at, payload, score, commit_sha, ending, variables from responses where id = any($1::uuid[])",
          [wanted],
        ),
  ]);
  const byId = new Map(responses.map(({ id, ...r }) => [id, r]));
  // a delivery whose webhook is gone (a submit raced its delete) is left to sweepOrphans
  return leased.flatMap((l) => {
    const hook = info.get(l.webhook_id);
    if (!hook) return [];
    const r = l.response_id && l.event === "response.created" ? byId.get(l.response_id) : undefined;
    return [{ ...l, ...hook, ...(r ?? NO_RESPONSE) }];
  });
}

export interface Outcome {
  /** Set for a delivery handed over without a row. */
  unwritten?: Unwritten;
  id: string;
  status: "delivered" | "pending" | "failed";
  httpStatus: number | null;
  error: string | null;
  /** Seconds until the next attempt (pending only). */
  retryIn: number;
}

/**
 * Writes the outcomes of a batch of attempts in one statement. The rows are found by their ids
 * (`= any`), not by the join alone: without statistics (PGlite before its upkeep, a table that
 * has just grown) the planner hashed the batch and scanned every delivery ever kept for it,
 * 6.3 ms for 100 outcomes among 20,000 rows on PGlite against 1.9 ms over the key.
 */
export async function recordOutcomes(
  db: Db,
  all: Outcome[],
  mark: Date | null = null,
): Promise<void> {
  const outcomes = all.filter((o) => !o.unwritten);
  const unwritten = all.filter((o) => o.unwritten);
  if (unwritten.length > 0 || mark) await recordUnwritten(db, unwritten, mark);
  if (outcomes.length === 0) return;
  await db.query(
    `update webhook_deliveries d set status = x.status, last_status = x.http_status,
            last_error = x.error,
            next_attempt_at = case when x.status = 'pending' then now() + make_interval(secs => x.retry_in)
                                   else d.next_attempt_at end,
            delivered_at = case when x.status = 'delivered' then now() else d.delivered_at end
       from unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::float8[])
         as x(id, status, http_status, error, retry_in)
      where d.id = x.id and d.id = any($1::uuid[])`,
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
 * them from piling up at the head of the queue. It looks at each webhook id with pending
 * deliveries once, skipping along the `(webhook_id, next_attempt_at)` index: an anti-join over
 * every pending row held PGlite's loop 0.7 s a minute at a million of them (one account's hanging
 * receivers, ten to a form, fill the queue at its submit rate), and more with more.
 */
export function sweepOrphans(db: Db): Promise<unknown> {
  return db.query(
    `with recursive hooks as (
       (select webhook_id as id from webhook_deliveries where status = 'pending'
         order by webhook_id, next_attempt_at limit 1)
       union all
       select (select d.webhook_id from webhook_deliveries d
                where d.status = 'pending' and d.webhook_id > hooks.id
                order by d.webhook_id, d.next_attempt_at limit 1)
         from hooks where hooks.id is not null)
     delete from webhook_deliveries d where d.status = 'pending' and d.webhook_id in (
       select h.id from hooks h where h.id is not null
          and not exists (select 1 from webhooks w where w.id = h.id))`,
  );
}

/**
 * Removes delivered and failed deliveries older than `days` (pending ones stay, whatever their
 * age), at most ten batches per call; answers how many went.
 */
export async function pruneDeliveries(db: Db, days: number, rounds = 10): Promise<number> {
  if (days <= 0) return 0;
  // the places of deliveries handed over without a row, by their batch's time
  await db.query(
    "delete from webhook_delivered where recorded_at < now() - make_interval(days => $1)",
    [days],
  );
  const old = "created_at < now() - make_interval(days => $1) and status <> 'pending'";
  return pruneRows(db, "webhook_deliveries", old, days, rounds);
}
