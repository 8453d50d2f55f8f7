import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { copyOut } from "./copy-out.ts";
import { databaseGate } from "./gate.ts";
import { unavailableError } from "./outage.ts";
import { preparedQueries } from "./pglite-prepared.ts";

/**
 * The one database interface: PGlite (embedded) or any Postgres through postgres.js. Parameters
 * only ($1…); nothing relies on session state, so a transaction pooler in front is fine. Work
 * that must be atomic is written as one statement.
 */
export interface Db {
  kind: "pglite" | "postgres";
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /**
   * Streams `COPY … TO STDOUT` (Postgres only): the database writes exports itself. COPY takes
   * no bind parameters: `params`, when given, are set for this statement alone (one read-only
   * transaction) as the JSON array `current_setting('formdown.copy_params')` reads.
   */
  copyOut?(statement: string, params?: unknown[]): AsyncIterable<Uint8Array>;
  /** Runs a multi-statement script without parameters in one transaction (migrations only). */
  exec(script: string): Promise<void>;
  /**
   * Answers at once whether the database answers (`/api/health`); never waits out an outage.
   * Without it, a `select 1` tells.
   */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (Postgres, where the URL allows it; PGlite,
   * pglite-prepared.ts), so it is planned once rather than on every call. Only for hot texts of
   * a fixed shape: the driver keeps every prepared text for the connection's life (PGlite its
   * last 200), so a text assembled per form must not be.
   */
  prepare?: boolean;
  /**
   * When the request this statement serves must be answered (epoch ms; Postgres): the statement
   * waits out an outage and runs at most until then, then fails 503 `unavailable`. Without it, a
   * statement has its own budget (the outage wait, then the client deadline), so a request of
   * several statements, or one queued behind others, could take longer than any one of them.
   */
  answerBy?: number;
}

/**
 * How long the client waits for a statement's answer: the statement timeout (seconds; 0 for
 * none) and half a second, or 0 for no limit. It is also the time a submit is given from its
 * arrival to its answer, whatever the database does (4.5 s by default).
 */
export const clientDeadlineMs = (statementTimeout: number) =>
  statementTimeout > 0 ? statementTimeout * 1000 + 500 : 0;

/** int8 and numeric come back as strings from postgres.js; timestamps as Dates. Normalise. */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(row)) {
    if (v instanceof Date) row[k] = v.toISOString();
    else if (typeof v === "bigint") row[k] = Number(v);
  }
  return row;
}

/**
 * The rows postgres.js answered, normalised, without holes. postgres.js 3.4 counts a result's
 * rows on the connection and resets the count only when a statement completes: after one that
 * failed while sending its rows (a statement timeout, a cancel, a shutdown, a division by zero
 * in row four), the next statement on that connection fills its array from that count on,
 * behind empty slots (porsager/postgres#1181; db.test.ts). Read as they came, `const [row]`
 * would be undefined (a 404 for a form that exists) and a loop would meet `undefined` rows.
 */
function ownRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  if (rows.length === 0 || 0 in rows) return rows.map(normalise);
  const own: Record<string, unknown>[] = [];
  rows.forEach((row) => {
    own.push(normalise(row));
  });
  return own;
}

export function wrapPglite(pg: PGlite, onClose?: () => Promise<void> | void): Db {
  const query = preparedQueries(pg);
  return {
    kind: "pglite",
    async query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}) {
      return (await query(text, params, options.prepare)).map(normalise) as T[];
    },
    async exec(script: string) {
      await pg.transaction(async (tx) => {
        await tx.exec(script);
      });
    },
    async close() {
      await pg.close();
      await onClose?.();
    },
  };
}

export { openPglite } from "./pglite.ts";

/**
 * Prepared statements save the planning of hot queries (see QueryOptions), but a transaction
 * pooler (Supabase's on port 6543, or any URL with `pgbouncer=true`) cannot keep them: there,
 * and when the URL says `prepare=false`, they are off.
 */
export function preparedStatements(url: string): boolean {
  const u = new URL(url);
  const flag = u.searchParams.get("prepare");
  if (flag !== null) return flag !== "false";
  return u.port !== "6543" && u.searchParams.get("pgbouncer") !== "true";
}

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number;
  /**
   * Seconds a statement may run before Postgres cancels it (0: no limit; default 4). The client
   * gives up half a second later if no answer comes at all (a server that hangs, or vanished
   * without closing the connection), so a request is answered within 5 s even then. COPY
   * exports and migrations are exempt: they are long by nature.
   */
  statementTimeout?: number;
  /** Milliseconds a statement waits for an unreachable database to come back before a 503. */
  outageWaitMs?: number;
  /** Told once when the database becomes unreachable and once when it is back. */
  onOutage?: (up: boolean, error?: unknown) => void;
}

/** A read can be sent again after its connection died; a statement that may write cannot. */
const READ_ONLY = /^\s*select\b/i;
const WRITES = /\b(insert|update|delete|nextval|setval|for\s+update)\b/i;
const resendable = (text: string) => READ_ONLY.test(text) && !WRITES.test(text);

/** postgres.js's Query: a lazy thenable with cancel(), and where it stands on its connection. */
type DriverQuery<T> = PromiseLike<T> & { cancel(): unknown; state?: unknown; active?: boolean };

/**
 * A query rejected by our own deadline (`code`: DB_DEADLINE, the server did not answer; or
 * DB_ANSWER_BY, the request's time ran out first, which says nothing about the server).
 */
function deadline<T>(query: DriverQuery<T>, ms: number, code = "DB_DEADLINE"): Promise<T> {
  if (ms <= 0 || ms === Number.POSITIVE_INFINITY) return Promise.resolve(query);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Only the statement the server is running is cancelled (a cancel request, on a
      // connection of its own, which may not come either). postgres.js 3.4 mishandles the
      // cancel of any other: of one sent behind another on its connection it drops it from its
      // list while the server still answers it, so each query behind it gets the one before's
      // rows; of one waiting for its connection to open it leaves that connection stuck for the
      // rest of its life (10-15 min); both in db.test.ts. Such a statement runs when its turn
      // comes, bounded by the statement timeout, and nobody reads its answer.
      if (query.active)
        Promise.resolve()
          .then(() => query.cancel())
          .catch(() => {});
      reject(Object.assign(new Error(`The database did not answer within ${ms} ms.`), { code }));
    }, ms);
  });
  return Promise.race([query, late]).finally(() => clearTimeout(timer));
}

// Timeouts for a database that goes away (issue 16): connection attempts give up after 3 s (the
// driver's 30 s held requests that long); a refused attempt is retried after 50–100 ms, not on
// the driver's back-off that grows to 20 s and is shared by the whole pool (the gate in
// gate.ts spaces the attempts instead); idle connections close after 20 s and every connection
// is replaced after 10–15 min, so none lingers to hold up a Postgres shutdown or a failover.
const CONNECT_TIMEOUT_S = 3;
const IDLE_TIMEOUT_S = 20;
const maxLifetime = () => 600 + Math.random() * 300;
const backoff = () => 0.05 + Math.random() * 0.05;
const PROBE_EVERY_MS = 100;
/**
 * How long a statement waits for an unreachable database: a restart is over by then, and with
 * the queueing around it a request is still answered within 5 s.
 */
export const OUTAGE_WAIT_MS = 3500;
const PROBE_DEADLINE_MS = 1000;

export function openPostgres(url: string, maxOrOptions: number | PostgresOptions = {}): Db {
  const options = typeof maxOrOptions === "number" ? { max: maxOrOptions } : maxOrOptions;
  const max = options.max ?? 16;
  const statementTimeout = options.statementTimeout ?? 4;
  // our own URL flags are not Postgres settings: keep them away from the server
  const target = new URL(url);
  target.searchParams.delete("prepare");
  target.searchParams.delete("pgbouncer");
  const prepare = preparedStatements(url);
  const base = {
    prepare,
    connect_timeout: CONNECT_TIMEOUT_S,
    idle_timeout: IDLE_TIMEOUT_S,
    max_lifetime: maxLifetime as unknown as number,
    backoff,
    onnotice: () => {},
    types: {
      bigint: postgres.BigInt,
      // our callers pass JSON text for json/jsonb parameters; postgres.js would encode it again
      jsonb: {
        to: 3802,
        from: [3802, 114],
        serialize: (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)),
        parse: (x: string) => JSON.parse(x),
      },
    },
  };
  // Sent as a start-up parameter, which a transaction pooler may refuse (PgBouncer answers
  // "unsupported startup parameter"): behind one, the client deadline alone applies.
  const serverTimeout = statementTimeout > 0 && prepare;
  // No JIT compilation (likewise a start-up parameter): our statements over many rows cost just
  // enough to be compiled, and compiling took longer than it saved — 1.36 s of a 1.76 s report
  // statement at 1M responses, about 0.4 s of a 5 s CSV export (issue 28)
  const noJit = prepare ? { jit: "off" } : {};
  const sql = postgres(target.toString(), {
    ...base,
    max,
    connection: {
      application_name: "formdown",
      ...noJit,
      ...(serverTimeout ? { statement_timeout: statementTimeout * 1000 } : {}),
    },
  });
  // COPY exports stream for as long as the client reads: they get connections of their own,
  // opened on the first export, without the statement timeout
  let exportSql: postgres.Sql | null = null;
  const exporter = () =>
    (exportSql ??= postgres(target.toString(), {
      ...base,
      max: 4,
      connection: { application_name: "formdown-export", ...noJit },
    }));
  const clientDeadline = clientDeadlineMs(statementTimeout);
  const gate = databaseGate({
    waitMs: options.outageWaitMs ?? OUTAGE_WAIT_MS,
    probeEveryMs: PROBE_EVERY_MS,
    probe: () => deadline(sql.unsafe("select 1"), PROBE_DEADLINE_MS),
    ...(options.onOutage ? { onChange: options.onOutage } : {}),
  });
  return {
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = [], queryOptions?: QueryOptions) {
      // postgres.js prepares nothing sent through unsafe() unless asked
      const rows = await gate.run(
        (msLeft) =>
          deadline(
            sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
              prepare: prepare && queryOptions?.prepare === true,
            }),
            clientDeadline > 0 ? Math.min(clientDeadline, msLeft) : msLeft,
            clientDeadline > 0 && clientDeadline <= msLeft ? "DB_DEADLINE" : "DB_ANSWER_BY",
          ),
        resendable(text),
        queryOptions?.answerBy,
      );
      return ownRows(rows as unknown as Record<string, unknown>[]) as T[];
    },
    async ping() {
      if (!gate.up) throw unavailableError();
      await deadline(sql.unsafe("select 1"), PROBE_DEADLINE_MS);
    },
    copyOut: (statement: string, params?: unknown[]) =>
      copyOut(exporter(), gate, statement, params),
    async exec(script: string) {
      await sql.begin(async (tx) => {
        // migrations may build an index over a large table
        await tx.unsafe("set local statement_timeout = 0");
        await tx.unsafe(script).simple();
      });
    },
    async close() {
      gate.close();
      await Promise.all([sql.end({ timeout: 5 }), exportSql?.end({ timeout: 5 })]);
    },
  };
}
