// Named prepared statements for the embedded database, for the texts a caller marks hot
// (QueryOptions.prepare, as on Postgres). PGlite's `query` parses, analyses and plans its
// statement on every call (an unnamed statement: five protocol messages, each a call into the
// WebAssembly), and on PGlite that work is the service's own CPU: a submit's INSERT took
// 360-440 µs, and with its webhook deliveries written in the same statement 1,040 µs, of which a
// plan kept under a name saves 210 and 700 µs (issue 28). A marked text is parsed once under a
// name, and from then on each call is one Bind, Execute and Sync; the rows come back through
// PGlite's own type parsers, as `query` gives them.
import { Buffer } from "node:buffer";
import type { PGlite, protocol } from "@electric-sql/pglite";

/** Statements kept prepared at once; the one used longest ago is closed to make room. */
const KEPT = 200;

interface Prepared {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

type Message = { name: string } & Record<string, unknown>;

/** The database's error in these messages, thrown as PGlite's `query` throws it. */
function raise(messages: Message[], text: string, params: unknown[]): void {
  const error = messages.find((m) => m.name === "error");
  if (error) throw Object.assign(error, { query: text, params });
}

/**
 * A `query` for `pg` that keeps the texts it is told to prepare. It takes PGlite's own locks, so
 * a call waits for a transaction under way elsewhere exactly as `pg.query` does.
 */
export function preparedQueries(
  pg: PGlite,
): (text: string, params: unknown[], prepare?: boolean) => Promise<Record<string, unknown>[]> {
  // loaded with PGlite itself, which a server on Postgres never imports
  let serialize: typeof protocol.serialize;
  const kept = new Map<string, Prepared>();
  let counter = 0;

  /** The protocol messages sent as one, and the answers; the database's error thrown. */
  async function exchange(sent: Uint8Array[], text: string, params: unknown[]) {
    const { messages } = await pg.execProtocol(Buffer.concat(sent), { throwOnError: false });
    raise(messages as Message[], text, params);
    return messages;
  }

  async function prepareNamed(text: string): Promise<Prepared> {
    const name = `fd_${++counter}`;
    const messages = await exchange(
      [serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()],
      text,
      [],
    );
    const params = messages.find((m) => m.name === "parameterDescription") as
      | { dataTypeIDs: number[] }
      | undefined;
    const rows = messages.find((m) => m.name === "rowDescription") as
      | { fields: { name: string; dataTypeID: number }[] }
      | undefined;
    const prepared = { name, paramTypes: params?.dataTypeIDs ?? [], fields: rows?.fields ?? [] };
    if (kept.size >= KEPT) await forget(kept.keys().next().value as string);
    kept.set(text, prepared);
    return prepared;
  }

  async function forget(text: string) {
    const prepared = kept.get(text);
    if (!prepared) return;
    kept.delete(text);
    await pg.execProtocol(
      Buffer.concat([serialize.close({ type: "S", name: prepared.name }), serialize.sync()]),
      { throwOnError: false },
    );
  }

  async function run(prepared: Prepared, text: string, params: unknown[]) {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[prepared.paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange(
      [
        serialize.bind({ statement: prepared.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ],
      text,
      params,
    );
    const rows: Record<string, unknown>[] = [];
    const { fields } = prepared;
    for (const m of messages) {
      if (m.name !== "dataRow") continue;
      const row: Record<string, unknown> = {};
      const cells = (m as unknown as { fields: (string | null)[] }).fields;
      for (let i = 0; i < cells.length; i++) {
        const field = fields[i]!;
        const cell = cells[i] ?? null;
        const parser = pg.parsers[field.dataTypeID];
        row[field.name] = cell === null || !parser ? cell : parser(cell, field.dataTypeID);
      }
      rows.push(row);
    }
    return rows;
  }

  return async (text, params, prepare = false) => {
    if (!prepare) return (await pg.query<Record<string, unknown>>(text, params)).rows;
    serialize ??= (await import("@electric-sql/pglite")).protocol.serialize;
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        // as `query` says it (a statement that waited for the lock while the database closed)
        if (pg.closed) throw new Error("PGlite is closed");
        let prepared = kept.get(text);
        if (prepared) {
          // most recently used last: the first entry is the one to close
          kept.delete(text);
          kept.set(text, prepared);
        } else prepared = await prepareNamed(text);
        try {
          return await run(prepared, text, params);
        } catch (error) {
          // a table changed under the plan so that its columns differ: prepared again, once
          if ((error as { code?: string }).code !== "0A000") throw error;
          await forget(text);
          return run(await prepareNamed(text), text, params);
        }
      }),
    );
  };
}
