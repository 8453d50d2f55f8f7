// The one writer of submits (submit-sql.ts builds their statement). A submit that carries
// nothing but its row (sharable: no email due, no upload, no Idempotency-Key, no cap; the rate
// limiter counts in memory, so a submit under it is sharable too) waits in a queue while earlier
// statements are in flight, and the ones that arrive go out together as one statement: one round
// trip, one plan and one commit for the lot. An idle server sends each one alone, on the next
// turn of the event loop. Any other submit, a test answer included, is its own statement at once.
// Every submit is still answered only after its own row has committed. If a shared INSERT fails,
// its rows are sent again one by one, so one bad row (a form deleted meanwhile) fails only its
// own submit.
//
// Measured with loops of single and shared INSERTs on this machine: per row, one INSERT costs
// ~210 µs on PGlite and ~490 µs on Postgres (a commit each); 16 rows in one INSERT cost ~46 µs
// and ~59 µs a row.

import type { AppContext } from "../context.ts";
import type { Db } from "../db/db.ts";
import { outageKind, unavailableError } from "../db/outage.ts";
import { deliveryId } from "../webhooks/delivery-id.ts";
import { handoffLease } from "../webhooks/handover.ts";
import {
  HANDED_OVER,
  type Lease,
  type SubmitWrite,
  sharable,
  submitStatement,
} from "./submit-sql.ts";

export interface Inserted {
  id: string;
  seq: number;
  /** Its number among the form's stored responses, when the statement counted (submit-sql.ts). */
  n?: number;
  /** Its deliveries, written leased to this process's sender, or handed over without a row. */
  leased?: LeasedDelivery[];
}

export interface LeasedDelivery {
  id: string;
  webhook_id: string;
  created_at: string;
}

type Row = Inserted & {
  delivery_id?: string | null;
  webhook_id?: string;
  created_at?: string;
  submitted_at?: string;
};

/**
 * The statement's rows (one per delivery when leased) as one result per submit of `ws`, or
 * undefined for one it did not write (its cap reached, its invite spent). Deliveries handed over
 * without a row are created with the response, each with the id migration …000200's
 * `webhook_delivery_id` gives it.
 */
function results(rows: Row[], ws: readonly SubmitWrite[], lease: Lease): (Inserted | undefined)[] {
  const byId = new Map<string, Inserted & { at?: string }>();
  for (const r of rows) {
    let found = byId.get(r.id);
    if (!found) {
      found = { id: r.id, seq: Number(r.seq), ...(r.n != null ? { n: Number(r.n) } : {}) };
      if (r.submitted_at) found.at = r.submitted_at;
      byId.set(r.id, found);
    }
    if (!r.delivery_id) continue;
    found.leased ??= [];
    found.leased.push({ id: r.delivery_id, webhook_id: r.webhook_id!, created_at: r.created_at! });
  }
  return ws.map(({ row, hooks = [] }) => {
    const found = byId.get(row.id);
    if (!found) return undefined;
    const { at, ...inserted } = found;
    if (lease === HANDED_OVER && hooks.length > 0)
      inserted.leased = hooks.map((webhook_id) => ({
        id: deliveryId(webhook_id, row.id),
        webhook_id,
        created_at: at!,
      }));
    else if (typeof lease === "number" && hooks.length > 0) inserted.leased ??= [];
    return inserted;
  });
}

interface Waiting {
  write: SubmitWrite;
  resolve: (inserted: Inserted | undefined) => void;
  reject: (error: unknown) => void;
}

const nextTurn: (f: () => void) => void =
  typeof setImmediate === "function" ? setImmediate : (f) => setTimeout(f, 0);

/** Writes a submit; undefined when its statement wrote no row (the cap, a spent invite). */
export type ResponseWriter = (write: SubmitWrite) => Promise<Inserted | undefined>;

/**
 * Writes submits, the sharable ones at most `parallel` statements at a time and up to `maxBatch`
 * rows in each; `maxBatch` 1 sends every row alone.
 */
export function responseWriter(
  db: Db,
  options: {
    parallel: number;
    maxBatch: number;
    /**
     * Seconds of lease for deliveries to these webhooks that this process's sender takes at
     * once, HANDED_OVER, or null (no sender here, or no room for them).
     */
    lease?: (hooks: string[]) => Lease;
  },
): ResponseWriter {
  const queue: Waiting[] = [];
  let running = 0;
  let scheduled = false;

  async function write(ws: SubmitWrite[]) {
    const hooks = ws.flatMap((w) => w.hooks ?? []);
    const lease = hooks.length > 0 ? (options.lease?.(hooks) ?? null) : null;
    const statement = submitStatement(ws, lease);
    const rows = await db.query<Row>(statement.text, statement.params, {
      prepare: true,
      answerBy: Math.min(...ws.map((w) => w.answerBy ?? Number.POSITIVE_INFINITY)),
    });
    return results(rows, ws, lease);
  }

  async function send(batch: Waiting[]) {
    if (batch.length > 1) {
      try {
        const written = await write(batch.map((w) => w.write));
        batch.forEach((w, i) => {
          w.resolve(written[i]);
        });
        return;
      } catch (error) {
        // the connection died under the INSERT: it may have committed, so sending the rows
        // again could write them twice; each submit gets the 503 instead
        if (outageKind(error) !== null) {
          for (const w of batch) w.reject(error);
          return;
        }
        // nothing of the batch was written: each row on its own, to fail only the bad ones
      }
    }
    await Promise.all(batch.map((w) => write([w.write]).then(([r]) => w.resolve(r), w.reject)));
  }

  // a submit queued behind statements that waited out an outage is answered in time, unsent
  function dropLate() {
    const now = Date.now();
    const late = (w: Waiting) => (w.write.answerBy ?? now) < now;
    if (!queue.some(late)) return;
    for (const w of queue.filter(late)) w.reject(unavailableError());
    queue.splice(0, queue.length, ...queue.filter((w) => !late(w)));
  }

  function pump() {
    dropLate();
    while (running < options.parallel && queue.length > 0) {
      running++;
      send(queue.splice(0, Math.max(1, options.maxBatch))).finally(() => {
        running--;
        pump();
      });
    }
  }

  // The first submit waits for the requests already read in this turn of the event loop: PGlite
  // runs a statement to the end before any other request is read, so without the wait no second
  // submit could ever join the first.
  return (w) => {
    if (!sharable(w)) return write([w]).then(([r]) => r);
    return new Promise<Inserted | undefined>((resolve, reject) => {
      queue.push({ write: w, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      nextTurn(() => {
        scheduled = false;
        pump();
      });
    });
  };
}

const writers = new WeakMap<AppContext, ResponseWriter>();

/**
 * Writes a submit for `ctx`. PGlite runs one statement at a time; on Postgres a few batches run
 * side by side. Without batching (FORMDOWN_SUBMIT_BATCH=1) nothing waits: every submit has its
 * statement at once.
 */
export function writeResponse(ctx: AppContext, w: SubmitWrite): Promise<Inserted | undefined> {
  let writer = writers.get(ctx);
  if (!writer) {
    const maxBatch = ctx.config.submitBatch;
    writer = responseWriter(ctx.db, {
      parallel: maxBatch === 1 ? Number.POSITIVE_INFINITY : ctx.db.kind === "pglite" ? 1 : 4,
      maxBatch,
      lease: (hooks) => handoffLease(ctx, hooks),
    });
    writers.set(ctx, writer);
  }
  return writer(w);
}
