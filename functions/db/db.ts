import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

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
  /** Streams `COPY … TO STDOUT` (Postgres only): the database writes exports itself. */
  copyOut?(statement: string): AsyncIterable<Uint8Array>;
  /** Runs a multi-statement script without parameters in one transaction (migrations only). */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (Postgres, where the URL allows it), so it is
   * planned once rather than on every call. Only for hot texts of a fixed shape: the driver keeps
   * every prepared text for the connection's life, so a text assembled per form must not be.
   */
  prepare?: boolean;
}

/** int8 and numeric come back as strings from postgres.js; timestamps as Dates. Normalise. */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(row)) {
    if (v instanceof Date) row[k] = v.toISOString();
    else if (typeof v === "bigint") row[k] = Number(v);
  }
  return row;
}

export function wrapPglite(pg: PGlite, onClose?: () => Promise<void> | void): Db {
  return {
    kind: "pglite",
    async query<T>(text: string, params: unknown[] = []) {
      const res = await pg.query<Record<string, unknown>>(text, params);
      return res.rows.map(normalise) as T[];
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

/** PGlite is loaded only when the embedded database is used. */
export async function openPglite(dataDir: string): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create({ dataDir });
}

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

export function openPostgres(url: string, max = 16): Db {
  // our own URL flags are not Postgres settings: keep them away from the server
  const target = new URL(url);
  target.searchParams.delete("prepare");
  target.searchParams.delete("pgbouncer");
  const prepare = preparedStatements(url);
  const sql = postgres(target.toString(), {
    max,
    prepare,
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
    connection: { application_name: "formdown" },
  });
  return {
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = [], options?: QueryOptions) {
      // postgres.js prepares nothing sent through unsafe() unless asked
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
        prepare: prepare && options?.prepare === true,
      });
      return (rows as unknown as Record<string, unknown>[]).map(normalise) as T[];
    },
    async *copyOut(statement: string) {
      for await (const chunk of await sql.unsafe(statement).readable()) yield chunk as Uint8Array;
    },
    async exec(script: string) {
      await sql.begin(async (tx) => {
        await tx.unsafe(script).simple();
      });
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
