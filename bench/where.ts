// A filtered report (SPEC §18, issue 26: `nps <= 6`) over N responses on Postgres, against the
// same filter written by hand.
// - "report path with where": collectReport, the whole report get_response_report and the REST
//   report read (tallies, stats, trend, drop-off beacons), with the checked `where` compiled to
//   bind parameters (functions/services/where/sql.ts).
// - "hand-written SQL": the very statements the unfiltered report runs, with the filter written by
//   hand into each one that reads responses, as an engineer would for this form:
//   `(payload ->> 'nps')::int <= 6` (a literal key and value, no type test). Only the filter
//   differs, so the ratio is what the filter language costs; both answers are checked equal.
// - "unfiltered report path": the same report without a filter (every response).
// Prints medians of 5 runs and the ratio (goal ≤ 1.2×); figures on a shared machine are noisy.
// Usage: node bench/where.ts [1000000]
import "./reader-gone.ts";
import postgres from "postgres";
import type { AppContext } from "../functions/context.ts";
import { type Db, openPostgres } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { collectReport } from "../functions/reports/report-data.ts";
import { formSequence } from "../functions/services/submit-sql.ts";
import { formSchema } from "../src/core/schema.ts";

const n = Number(process.argv[2] ?? 1_000_000);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_where_${Date.now()}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const db = openPostgres(url.toString(), { max: 4, statementTimeout: 0 });
const long = { answerBy: Number.POSITIVE_INFINITY };

const form = formSchema.parse({
  title: "Pulse",
  slug: "pulse",
  fields: [
    { id: "nps", type: "nps" },
    { id: "why", type: "textarea" },
    { id: "plan", type: "radio", options: ["Free", "Pro", "Team"] },
  ],
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(fn: () => Promise<unknown>) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

try {
  await migrate(db);
  const [account] = await db.query<{ id: string }>(
    "insert into accounts (handler) values ('bench') returning id",
  );
  const [row] = await db.query<{ id: string }>(
    `insert into forms (account_id, slug, short_code, title, type, definition)
     values ($1, 'pulse', 'Bench02', 'Pulse', 'form', $2::jsonb) returning id`,
    [account!.id, JSON.stringify(form)],
  );
  const formId = row!.id;
  const t = performance.now();
  await db.query(
    `insert into responses (form_id, seq, payload, seconds, version)
     select $1, nextval($2::regclass), jsonb_build_object('nps', g % 11,
         'plan', (array['Free', 'Pro', 'Team'])[1 + g % 3])
         || (case when g % 4 = 0 then jsonb_build_object('why', 'because ' || g) else '{}' end),
         g % 300, 1
       from generate_series(1, $3::int) g`,
    [formId, formSequence(formId), n],
    long,
  );
  await db.query("vacuum analyze responses", [], long);
  console.log(
    `${n.toLocaleString("en-US")} responses written in ${Math.round(performance.now() - t)} ms`,
  );

  const ctx = { db } as unknown as AppContext;
  const head = { id: formId, slug: "pulse", title: "Pulse", definition: form };
  const now = Date.now();
  const report = (c: AppContext, where?: unknown) =>
    collectReport(c, head, { since: null, until: null, period: { kind: "all" }, now, where });
  const ours = () => report(ctx, [{ field: "nps", op: "lte", value: 6 }]);
  const unfiltered = () => report(ctx);
  // the unfiltered report's own statements, the filter written into each that reads responses
  const hand = "(payload ->> 'nps')::int <= 6";
  let handWritten = 0;
  const handDb: Db = {
    ...db,
    query: (text, params, options) => {
      if (!/\bresponses\b/.test(text)) return db.query(text, params, options);
      const filtered = text.replaceAll(
        "where form_id = $1 and",
        `where form_id = $1 and ${hand} and`,
      );
      if (filtered === text) throw new Error(`no filter written into: ${text}`);
      handWritten++;
      return db.query(filtered, params, options);
    },
  } as Db;
  const byHand = () => report({ db: handDb } as unknown as AppContext);
  const a = await ours();
  const b = await byHand();
  // a grouped statement's rows come in any order: Maps compared as sorted entries
  const same = (r: typeof a) =>
    JSON.stringify({ ...r, segment: undefined }, (_, v) =>
      v instanceof Map ? [...v].sort(([x], [y]) => String(x).localeCompare(String(y))) : v,
    );
  if (same(a) !== same(b)) throw new Error("the hand-written statements answer differently");
  console.log(
    `segment: ${a.responses} responses (nps ≤ 6); ${handWritten} statements over responses`,
  );
  const o: number[] = [];
  const h: number[] = [];
  const u: number[] = [];
  for (let i = 0; i < 5; i++) {
    o.push(await timed(ours));
    h.push(await timed(byHand));
    u.push(await timed(unfiltered));
  }
  const [mo, mh, mu] = [median(o), median(h), median(u)];
  console.log(
    `report path with where: ${mo.toFixed(0)} ms · hand-written SQL: ${mh.toFixed(0)} ms · ratio ${(mo / mh).toFixed(2)} (goal ≤ 1.2) · unfiltered report path: ${mu.toFixed(0)} ms`,
  );
} finally {
  await db.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
