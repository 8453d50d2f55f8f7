import { AppError, type Failure } from "../../src/core/errors.ts";

/**
 * How a database error relates to an outage. Postgres, the network and postgres.js each name a
 * lost database differently; this is the one place that knows the names.
 *
 * - `refused`: the statement never reached a server (no connection could be made, or the server
 *   said at start-up that it takes none). Safe to send again once the database is back.
 * - `lost`: the connection died with the statement on it (a restart, a reset, no answer in time).
 *   The outcome is unknown — a write may have committed — so only a read is sent again.
 * - `busy`: the server is there but gave up on the statement (statement timeout), or we are
 *   closing the pool. Answered 503 as well, but says nothing about the database being down.
 */
export type OutageKind = "refused" | "lost" | "busy";

const REFUSED = new Set([
  // Node sockets
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  // postgres.js
  "CONNECT_TIMEOUT",
  // SQLSTATE: cannot_connect_now (starting up, shutting down, in recovery), too_many_connections,
  // sqlclient_unable_to_establish_sqlconnection, sqlserver_rejected_establishment_of_sqlconnection
  "57P03",
  "53300",
  "08001",
  "08004",
]);

const LOST = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  // our own deadline (functions/db/gate.ts): the server did not answer at all
  "DB_DEADLINE",
  // SQLSTATE: admin_shutdown, crash_shutdown, connection_exception and its kinds
  "57P01",
  "57P02",
  "08000",
  "08003",
  "08006",
  "08007",
]);

const BUSY = new Set([
  // query_canceled: the statement timeout, or the cancel our deadline sent
  "57014",
  // postgres.js, after close(): the server is shutting down
  "CONNECTION_ENDED",
  // the gate gave up waiting for the database to come back
  "DB_UNAVAILABLE",
  // the request's time ran out before the statement's answer (db.ts, QueryOptions.answerBy)
  "DB_ANSWER_BY",
]);

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  // net.connect to a name with several addresses fails with an AggregateError of each attempt
  const inner = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(inner) && inner.length > 0) return codeOf(inner[0]);
  return null;
}

/** Which kind of outage an error shows, or null when it is not about reaching the database. */
export function outageKind(error: unknown): OutageKind | null {
  const code = codeOf(error);
  if (code === null) return null;
  if (REFUSED.has(code)) return "refused";
  if (LOST.has(code)) return "lost";
  if (BUSY.has(code)) return "busy";
  return null;
}

/** Seconds a client is asked to wait before trying again while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 2;

export const UNAVAILABLE: Failure = {
  code: "unavailable",
  error: "The database cannot be reached right now. Please try again in a few seconds.",
  retryAfter: RETRY_AFTER_SECONDS,
};

/** The failure for an error that means the database cannot answer now, or null. */
export function unavailableFailure(error: unknown): Failure | null {
  return outageKind(error) === null ? null : UNAVAILABLE;
}

/** What the gate throws when the database did not come back within the wait. */
export function unavailableError(cause?: unknown): Error {
  const error = new AppError(UNAVAILABLE);
  Object.assign(error, { code: "DB_UNAVAILABLE", cause });
  return error;
}

/** A respondent's page while the database is out of reach. */
export function unavailablePage(): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Back in a moment</title></head><body><main><h1>Back in a moment</h1><p>${UNAVAILABLE.error}</p></main></body></html>`,
    {
      status: 503,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "retry-after": String(RETRY_AFTER_SECONDS),
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'",
      },
    },
  );
}
