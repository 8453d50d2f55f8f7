// The long fault runs (issue 16 item 6): `node bench/faults.ts [rounds]` (default 2).
// Each round, against real server processes (`node functions/node/start.ts`):
//   1. Postgres stopped for 5 s under 64 submitting clients (a throwaway cluster), a
//      `pg_ctl stop -m fast` + start with no pause (a fast restart), and Postgres frozen with
//      SIGSTOP for 5 s (a hung host: connections stay open, nothing answers);
//   2. kill -9 of the server mid-load, on PGlite (same data dir) and on Postgres;
//   3. Postmark down for 5 s while 200 responses each due an email arrive.
// Prints what each cost and whether every acknowledged response and every email is there.
// Needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin, or PG_BIN); as root, the
// cluster runs as the `postgres` user (test/faults/pg-cluster.ts). The short versions run in
// `npm test` (test/faults/).
import "./reader-gone.ts";
import postgres from "postgres";
import { createPgCluster } from "../test/faults/pg-cluster.ts";
import { missingFrom, type ReadBack } from "../test/faults/read-back.ts";
import {
  killNineUnderLoad,
  mailOutage,
  postgresRestartUnderLoad,
} from "../test/faults/scenarios.ts";

const rounds = Number(process.argv[2] ?? 2);
let failures = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failures++;
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
};

/** Every read path is judged; `judgeKeyset` false only shows JSON/Markdown (kept for comparing old builds). */
function paths(acked: string[], rb: ReadBack, stored: number, judgeKeyset: boolean) {
  for (const k of ["responses", "submissions", "csv", "json", "markdown"] as const) {
    const missing = missingFrom(acked, rb[k]).length;
    const line = `${k}: ${rb[k].size} rows, ${missing} acknowledged missing`;
    if (!judgeKeyset && (k === "json" || k === "markdown"))
      console.log(`  note ${line} (keyset fix pending)`);
    else check(missing === 0 && rb[k].size === stored, line);
  }
  check(
    rb.stats === stored && rb.listTotal === stored,
    `stats ${rb.stats}, list total ${rb.listTotal}, stored ${stored}`,
  );
}

for (let round = 1; round <= rounds; round++) {
  console.log(`\n=== round ${round}/${rounds}`);
  for (const [name, outageMs, fault] of [
    ["Postgres stopped for 5 s", 5000, "stop"],
    ["Postgres fast restart", 0, "stop"],
    ["Postgres frozen (SIGSTOP) for 5 s", 5000, "freeze"],
  ] as const) {
    const cluster = await createPgCluster();
    try {
      const r = await postgresRestartUnderLoad(cluster, {
        concurrency: 64,
        beforeMs: 3000,
        outageMs,
        afterMs: 3000,
        cli: outageMs > 0 && fault === "stop",
        fault,
      });
      const s = r.summary;
      console.log(
        `${name}, 64 clients: ${JSON.stringify(s.byStatus)}; slowest answer ${s.maxMs} ms; first 201 ${r.firstAckAfterBackMs} ms after Postgres was back; pg_ctl stop took ${r.stopMs} ms; health while down ${JSON.stringify([...new Set(r.healthDown)])}`,
      );
      const bad = r.outcomes.filter(
        (o) => o.status !== 201 && !(o.status === 503 && o.code === "unavailable" && o.retryAfter),
      );
      check(
        bad.length === 0,
        `only 201 and clean 503 unavailable with Retry-After (${bad.length} other)`,
      );
      check(s.maxMs < 5000, `no request waited 5 s (slowest ${s.maxMs} ms)`);
      check((r.firstAckAfterBackMs ?? 9e9) <= 1000, "first 201 within 1 s of Postgres being back");
      check(r.stopMs < 5000, `shutdown not held up (${r.stopMs} ms)`);
      check(
        r.sqlCount >= s.acknowledged.length,
        `select count(*) ${r.sqlCount} ≥ ${s.acknowledged.length} acknowledged`,
      );
      paths(s.acknowledged, r.readBack, r.sqlCount, true);
    } finally {
      cluster.thaw();
      cluster.destroy();
    }
  }

  for (const kind of ["pglite", "postgres"] as const) {
    const cluster = kind === "postgres" ? await createPgCluster() : null;
    try {
      let databaseUrl: string | undefined;
      if (cluster) {
        const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
        await admin.unsafe("create database kill9");
        await admin.end();
        databaseUrl = cluster.url.replace(/\/postgres$/, "/kill9");
      }
      const r = await killNineUnderLoad({
        concurrency: 64,
        loadMs: 8000,
        ...(databaseUrl ? { databaseUrl } : {}),
      });
      const acked = [...r.before.acknowledged, ...r.after.acknowledged];
      console.log(
        `kill -9 mid-load (${kind}), 64 clients: before ${JSON.stringify(r.before.byStatus)}, after restart ${JSON.stringify(r.after.byStatus)}; restart took ${r.restartMs} ms`,
      );
      const stored = r.sqlCount ?? r.readBack.listTotal;
      check(
        stored >= acked.length && stored <= acked.length + 64,
        `stored ${stored}, acknowledged ${acked.length}`,
      );
      paths(acked, r.readBack, stored, true);
    } finally {
      cluster?.destroy();
    }
  }

  const m = await mailOutage({ count: 200, downMs: 5000, settleMs: 5000 });
  const expected = m.acknowledged + 1;
  const unique = new Set(m.subjects).size;
  console.log(
    `Postmark down 5 s, 200 responses: ${m.acknowledged} acknowledged, ${m.refused} emails refused while down, ${m.subjects.length} delivered (${unique} distinct) ${m.deliveredMs} ms after it was back`,
  );
  check(
    m.subjects.length === expected && unique === expected,
    `every email once (${expected} due)`,
  );
}
console.log(failures === 0 ? "\nAll fault checks held." : `\n${failures} fault checks FAILED.`);
process.exit(failures === 0 ? 0 : 1);
