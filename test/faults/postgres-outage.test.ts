// Postgres goes away mid-load and comes back (issue 16 item 4): a real server process on a
// throwaway cluster (test/faults/pg-cluster.ts), Postgres stopped with `pg_ctl stop -m fast`
// for two seconds while 16 clients submit. The long version: `node bench/faults.ts`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgCluster, findPgBin, type PgCluster } from "./pg-cluster.ts";
import { missingFrom } from "./read-back.ts";
import { type PostgresRestartResult, postgresRestartUnderLoad } from "./scenarios.ts";

const bin = findPgBin();
if (!bin)
  console.log("No PostgreSQL server binaries (PG_BIN): the Postgres outage suite is left out.");

describe.runIf(bin)("Postgres stopped for two seconds under submit load", () => {
  let cluster: PgCluster;
  let r: PostgresRestartResult;
  beforeAll(async () => {
    cluster = await createPgCluster();
    r = await postgresRestartUnderLoad(cluster, {
      concurrency: 16,
      beforeMs: 1000,
      outageMs: 2000,
      afterMs: 1500,
    });
  }, 120_000);
  afterAll(() => cluster?.destroy());

  // how long anything took (slowest answer, first 201 after, shutdown) is bench/faults.ts's
  it("answers only 201 or a clean 503 unavailable with Retry-After", () => {
    const other = r.outcomes.filter((o) => o.status !== 201 && o.status !== 503);
    expect(other, r.output).toEqual([]);
    const unavailable = r.outcomes.filter((o) => o.status === 503);
    for (const o of unavailable) {
      expect(o.code).toBe("unavailable");
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
    }
    // the requests that arrived as Postgres went down waited for it, then gave up: about one or
    // two per client. A server that failed each request at once would answer hundreds per client
    // in two seconds; the bound leaves room for a busy machine where a wait ends a little early.
    expect(unavailable.length).toBeLessThanOrEqual(16 * 4);
    expect(r.summary.byStatus[201]).toBeGreaterThan(100);
  });

  it("says in /api/health that the database is down, and that it is back", () => {
    expect(new Set(r.healthDown)).toEqual(new Set([503]));
    expect(r.healthUp).toEqual([200]);
  });

  it("shows a respondent a short 503 page asking to come back, not an error", () => {
    expect(r.page.status).toBe(503);
    expect(Number(r.page.retryAfter)).toBeGreaterThan(0);
    expect(r.page.text).toContain("Back in a moment");
  });

  it("tells a CLI user the database is unavailable, with a retryable exit code", () => {
    expect(r.cli.stderr).toMatch(/^error: The database cannot be reached.*\(unavailable\)\n$/);
    expect(r.cli.status).toBe(75);
  });

  it("takes submits again once Postgres accepts connections", () => {
    expect(r.firstAckAfterBackMs).not.toBeNull();
  });

  it("logs the outage and its end, not every request, with no 500 and no stack trace", () => {
    const lines = r.output.match(/The database (cannot be reached|answers again)/g) ?? [];
    // once down and once back. A stopping Postgres drops its pooled connections one by one, and a
    // probe can pass between two of them: "back" is told only once the database stayed up for a
    // second (functions/db/gate.ts), so that is one outage (CI once logged three). On a machine
    // this busy, an answer slower than its timeout a while later can still read as a second
    // short outage: lines alternate and stay few, whatever the number of requests
    expect(lines.length, r.output).toBeGreaterThanOrEqual(2);
    expect(lines.length, r.output).toBeLessThanOrEqual(4);
    lines.forEach((line, i) => {
      expect(line).toBe(
        i % 2 === 0 ? "The database cannot be reached" : "The database answers again",
      );
    });
    expect(r.output).not.toMatch(/failed|internal_error|\n\s+at /);
  });

  it("keeps every acknowledged response, readable through every read path", () => {
    const acked = r.summary.acknowledged;
    // each 201 names its own response (a statement answered with another's rows would not)
    expect(new Set(acked).size).toBe(acked.length);
    expect(missingFrom(acked, r.readBack.responses)).toEqual([]);
    expect(missingFrom(acked, r.readBack.submissions)).toEqual([]);
    expect(missingFrom(acked, r.readBack.csv)).toEqual([]);
    // A 503 may still have committed (its connection died after the commit), so the table may
    // hold a few more rows than were acknowledged; every read path must show the table's count.
    expect(r.sqlCount).toBeGreaterThanOrEqual(acked.length);
    expect(r.readBack.csv.size).toBe(r.sqlCount);
    expect(r.readBack.responses.size).toBe(r.sqlCount);
    expect(r.readBack.listTotal).toBe(r.sqlCount);
    expect(r.readBack.stats).toBe(r.sqlCount);
    expect(missingFrom(acked, r.readBack.json)).toEqual([]);
    expect(r.readBack.json.size).toBe(r.sqlCount);
    expect(missingFrom(acked, r.readBack.markdown)).toEqual([]);
    expect(r.readBack.markdown.size).toBe(r.sqlCount);
  });
});

describe.runIf(bin)("Postgres frozen (SIGSTOP) for five seconds under submit load", () => {
  let cluster: PgCluster;
  let r: PostgresRestartResult;
  beforeAll(async () => {
    cluster = await createPgCluster();
    r = await postgresRestartUnderLoad(cluster, {
      concurrency: 8,
      beforeMs: 1000,
      outageMs: 5000,
      afterMs: 1500,
      cli: false,
      fault: "freeze",
    });
  }, 120_000);
  afterAll(() => {
    cluster?.thaw();
    cluster?.destroy();
  });

  it("gives up on a server that answers nothing: 503 unavailable", () => {
    const other = r.outcomes.filter((o) => o.status !== 201 && o.status !== 503);
    expect(other, r.output).toEqual([]);
    // the submits in flight when it froze: their connections answer nothing until the deadline
    const unavailable = r.outcomes.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const o of unavailable) expect(o.code).toBe("unavailable");
    expect(new Set(r.healthDown)).toEqual(new Set([503]));
    expect(r.firstAckAfterBackMs).not.toBeNull();
  });

  it("keeps every acknowledged response", () => {
    const acked = r.summary.acknowledged;
    // each 201 names its own response (a statement answered with another's rows would not)
    expect(new Set(acked).size).toBe(acked.length);
    expect(missingFrom(acked, r.readBack.responses)).toEqual([]);
    expect(missingFrom(acked, r.readBack.csv)).toEqual([]);
    // a 503 given up on may still commit once the server runs again
    expect(r.sqlCount).toBeGreaterThanOrEqual(acked.length);
    expect(r.readBack.csv.size).toBe(r.sqlCount);
    expect(r.readBack.stats).toBe(r.sqlCount);
  });
});
