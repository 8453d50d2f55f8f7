// A filtered report (SPEC §18, issue 26: `nps <= 6`) over N responses on Postgres, through the
// report's own SQL path (the checked `where` compiled to parameters, reportTallies), against the
// same three statements written by hand with the filter spelled `(payload ->> 'nps')::int <= 6`.
// Prints the ratio (goal ≤ 1.2×); figures on a shared machine are noisy.
// Usage: node bench/where.ts [1000000]
import postgres from "postgres";
import type { AppContext } from "../functions/context.ts";
import { openPostgres } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { reportTallies } from "../functions/insights/report-tallies.ts";
import { formSequence } from "../functions/services/submit-sql.ts";
import { lineage } from "../src/core/plan/lineage.ts";
import { formSchema } from "../src/core/schema.ts";
import { checkWhere } from "../src/core/where/where.ts";

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
  const lines = lineage(form, []);
  const checked = checkWhere(form, lines, [{ field: "nps", op: "lte", value: 6 }]);
  if (!checked.ok) throw new Error(checked.failure.error);
  const where = checked.value;
  const ours = () =>
    reportTallies(ctx, formId, form.fields, null, false, null, 5, lines, false, where);
  const unfiltered = () => reportTallies(ctx, formId, form.fields, null, false, null, 5, lines);
  // the report's three statements, the filter written by hand
  const hand = "form_id = $1 and not test and (payload ->> 'nps')::int <= 6";
  const byHand = () =>
    Promise.all([
      db.query(
        `select count(*)::int, array[count(*) filter (where payload ? 'nps'), count(*) filter (where payload ? 'why'),
                count(*) filter (where payload ? 'plan')]::int[], percentile_cont(0.5) within group (order by seconds)
           from responses where ${hand}`,
        [formId],
        long,
      ),
      db.query(
        `(select 'nps', payload ->> 'nps', count(*)::int from responses where ${hand} group by 2)
         union all (select 'plan', payload ->> 'plan', count(*)::int from responses where ${hand} group by 2)`,
        [formId],
        long,
      ),
      db.query(
        `select array(select payload ->> 'why' from responses where ${hand} and payload ? 'why'
                       order by submitted_at desc, id desc limit 5)`,
        [formId],
        long,
      ),
    ]);
  const a = await ours();
  console.log(`segment: ${a.responses} responses (nps ≤ 6)`);
  await byHand();
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
