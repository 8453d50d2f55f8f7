import type { Readable } from "node:stream";
import type postgres from "postgres";
import type { Gate } from "./gate.ts";

/** The setting a COPY statement reads its values from (`copyOut`). */
export const COPY_PARAMS = "formdown.copy_params";

/**
 * Streams `COPY … TO STDOUT` on `sql` (the export connections), through the outage gate. COPY
 * takes no bind parameters: `params`, when given, are set for this statement alone, in one
 * read-only transaction, as the JSON array `current_setting('formdown.copy_params')` reads; that
 * transaction plans without sorts.
 */
export async function* copyOut(
  sql: postgres.Sql,
  gate: Gate,
  statement: string,
  params?: unknown[],
): AsyncGenerator<Uint8Array> {
  // with values: a connection of its own for one transaction, the values set in it alone
  // (a transaction pooler keeps the transaction on one server connection)
  let conn: postgres.ReservedSql | null = null;
  let query: postgres.PendingQuery<postgres.Row[]> | null = null;
  const end = async (outcome: "commit" | "rollback") => {
    const c = conn;
    conn = null;
    await c?.unsafe(outcome).catch(() => {});
    c?.release();
  };
  let readable: Readable;
  // the statement's error, caught by a listener the stream has from the moment it is made
  const failed: { error?: unknown } = {};
  try {
    readable = (await gate.run(async () => {
      await end("rollback");
      if (params === undefined) query = sql.unsafe(statement);
      else {
        conn = await sql.reserve();
        await conn.unsafe("begin read only");
        // and no sort: the planner took a filter for a third of the rows and sorted them after a
        // full scan, so nothing left before the sort had ended, while the index gives the rows
        // in their order from the first (bench/export.ts, filtered: 0.67–0.78× COPY → 0.81–0.88×)
        await conn.unsafe(
          "select set_config($1, $2, true), set_config('enable_sort', 'off', true)",
          [COPY_PARAMS, JSON.stringify(params)],
        );
        query = conn.unsafe(statement);
      }
      return listened(query, failed).readable();
    }, true)) as unknown as Readable;
  } catch (error) {
    await end("rollback");
    throw error;
  }
  let read = false;
  try {
    // not destroyed when the reader leaves early (a client gone mid-download): postgres.js
    // pauses the socket for a destroyed stream, which held the connection for good (after
    // four, every export waited). Instead the statement is cancelled and the rest let through.
    for await (const chunk of readable.iterator({ destroyOnReturn: false }))
      yield chunk as Uint8Array;
    // a stream destroyed with the error before it was read ends like one that was read whole
    if (failed.error !== undefined) throw failed.error;
    read = true;
  } finally {
    // left early, not ended by an error of the statement's (that closed the stream already)
    if (!read && !readable.destroyed) {
      // the cancel ends the statement with an error, which closes the stream
      const closed = new Promise((resolve) => readable.once("close", resolve));
      void query!.cancel();
      readable.resume();
      await closed;
    }
    await end(read ? "commit" : "rollback");
  }
}

/**
 * The query with its COPY stream listened to for `error` from the moment postgres.js makes it.
 * postgres.js hands the stream to the query's `resolve` and, when the statement fails after it
 * began (a value out of range, a cancel), destroys it with the error at once — often in the same
 * read of the socket, so the error is emitted before the caller awaiting the query could listen,
 * and an `error` nobody listens to ends the process (issue 41). (postgres.js replaces `resolve`
 * the same way for its own cursors.)
 */
function listened<T extends postgres.PendingQuery<postgres.Row[]>>(
  query: T,
  failed: { error?: unknown },
): T {
  const q = query as unknown as { resolve: (value: unknown) => void };
  const resolve = q.resolve;
  q.resolve = (value) => {
    const stream = value as Readable | null;
    if (typeof stream?.on === "function") {
      stream.on("error", (error: unknown) => {
        failed.error ??= error;
      });
      resumedAtEnd(stream);
    }
    resolve(value);
  };
  return query;
}

/**
 * The connection's socket flowing again once the COPY is over. postgres.js 3.4 pauses the socket
 * when a row fills the stream's buffer (nobody reading: a request awaiting something before it
 * streams, a slow client) and resumes it in the stream's `read`; when the COPY's end came in that
 * same read of the socket, the stream ends full and its `read` is never called again, so the
 * socket stayed paused and the next statement on that connection waited for good — the fault
 * suite's exports after an outage hung this way (porsager/postgres#499; the fix, #1016, is not
 * released). The stream's own `read` is that resume: called when the end is pushed (after it,
 * the socket carries other statements' answers) and when the stream is destroyed (an error that
 * came in the same read as a full buffer).
 */
function resumedAtEnd(stream: Readable): void {
  const push = stream.push.bind(stream);
  const resume = () => stream._read(0);
  stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
    const more = push(chunk, encoding);
    if (chunk === null) resume();
    return more;
  };
  stream.once("close", resume);
}
