// `plan` over a form with many responses against one `count(*)` over them, in the same run
// (SPEC §16: the answers each change touches are counted in ONE statement, one pass over the
// responses); and the submit INSERT with the `version` column against the same INSERT without it.
// Prints ratios; figures on a shared machine are noisy. Usage: node bench/plan.ts [1000000]
import "./reader-gone.ts";
import postgres from "postgres";
import type { AppContext } from "../functions/context.ts";
import { openPostgres } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { formSequence, submitStatement } from "../functions/services/submit-sql.ts";
import { planFor } from "../functions/services/versions/guard.ts";
import { formSchema } from "../src/core/schema.ts";

const n = Number(process.argv[2] ?? 1_000_000);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_plan_${Date.now()}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const db = openPostgres(url.toString(), { max: 2, statementTimeout: 0 });

const fields = (extra: unknown[] = []) => [
  { id: "fix", type: "text" },
  { id: "plan", type: "radio", options: ["Free", "Pro", "Team"] },
  { id: "budget", type: "number" },
  { id: "score", type: "text" },
  { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
  ...extra,
];
const before = formSchema.parse({ title: "Pulse", slug: "pulse", fields: fields() });
// the five changes of the end-to-end test at once: five filtered counts in one pass
const after = formSchema.parse({
  title: "Pulse",
  slug: "pulse",
  fields: [
    { id: "fix_first", type: "text", formerly: ["fix"] },
    { id: "plan", type: "radio", options: [{ label: "Starter", formerly: ["Free"] }, "Pro"] },
    { id: "score", type: "number" },
    { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
    { id: "company", type: "text", required: true },
  ],
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(runs: number, fn: () => Promise<unknown>) {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

try {
  await migrate(db);
  const [account] = await db.query<{ id: string }>(
    "insert into accounts (handler) values ('bench') returning id",
  );
  const [form] = await db.query<{ id: string }>(
    `insert into forms (account_id, slug, short_code, title, type, definition)
     values ($1, 'pulse', 'Bench01', 'Pulse', 'form', $2::jsonb) returning id`,
    [account!.id, JSON.stringify(before)],
  );
  const formId = form!.id;
  const seq = formSequence(formId);
  let t = performance.now();
  await db.query(
    `insert into responses (form_id, seq, payload, version)
     select $1, nextval($2::regclass), jsonb_build_object(
         'fix', 'fix ' || g, 'plan', (array['Free', 'Pro', 'Team'])[1 + g % 3], 'budget', g % 1000,
         'score', ((g % 5) + 1)::text,
         'tags', case when g % 2 = 0 then '["a", "c"]'::jsonb else '["b"]'::jsonb end)
         - (case when g % 7 = 0 then 'budget' else '' end), 1
       from generate_series(1, $3::int) g`,
    [formId, seq, n],
    { answerBy: Number.POSITIVE_INFINITY },
  );
  await db.query("vacuum analyze responses");
  console.log(
    `${n.toLocaleString("en-US")} responses written in ${Math.round(performance.now() - t)} ms`,
  );

  const ctx = { db } as unknown as AppContext;
  const row = { id: formId, slug: "pulse", version: 1, definition: before };
  const count = () =>
    db.query("select count(*) from responses where form_id = $1", [formId], {
      answerBy: Number.POSITIVE_INFINITY,
    });
  // warm both, then alternate so drift on a shared machine hits both alike
  await count();
  const plan = await planFor(ctx, row, after);
  console.log(
    plan.changes.map((c) => `  ${c.kind} ${c.field ?? ""}: ${c.answers_affected}`).join("\n"),
  );
  // count(*) scans the rows (a parallel seq scan: 95-134 ms for 1M here) without reading a payload;
  // a count that reads each answer once (what any count of answers must do) is printed beside it.
  // The plan's five filters cost about 350 ms more than the scan: each jsonb operator copies the
  // row's short payload first. Tried and slower (1M, 2026-11-26): jsonb_to_record into columns
  // once per row (869 ms against 486 ms), one copy in a subquery (payload - '', 1,565 ms).
  const countAnswers = () =>
    db.query(
      "select count(*) from responses where form_id = $1 and payload <> '{}'::jsonb",
      [formId],
      { answerBy: Number.POSITIVE_INFINITY },
    );
  await countAnswers();
  const counts: number[] = [];
  const reads: number[] = [];
  const plans: number[] = [];
  for (let i = 0; i < 5; i++) {
    counts.push(await timed(1, count));
    reads.push(await timed(1, countAnswers));
    plans.push(await timed(1, () => planFor(ctx, row, after)));
  }
  const c = median(counts);
  const r = median(reads);
  const p = median(plans);
  console.log(
    `count(*): ${c.toFixed(0)} ms · count of the answers read: ${r.toFixed(0)} ms · plan (5 changes, one statement): ${p.toFixed(0)} ms · ratio ${(p / c).toFixed(2)} to count(*) (target ≤ 2), ${(p / r).toFixed(2)} to the answers read`,
  );

  // the submit's INSERT with and without the version column (one statement either way)
  const write = (version: number | null) => {
    const s = submitStatement([
      {
        row: {
          id: crypto.randomUUID(),
          form_id: formId,
          payload: JSON.stringify({ fix: "x", plan: "Pro" }),
          version,
        },
        sequence: seq,
      },
    ]);
    return db.query(s.text, s.params, { prepare: true });
  };
  const without: number[] = [];
  const withVersion: number[] = [];
  for (let round = 0; round < 10; round++) {
    t = performance.now();
    for (let i = 0; i < 200; i++) await write(null);
    without.push((performance.now() - t) / 200);
    t = performance.now();
    for (let i = 0; i < 200; i++) await write(2);
    withVersion.push((performance.now() - t) / 200);
  }
  const a = median(without) * 1000;
  const b = median(withVersion) * 1000;
  console.log(
    `submit INSERT: ${a.toFixed(0)} µs without version · ${b.toFixed(0)} µs with it · ratio ${(b / a).toFixed(2)}`,
  );
} finally {
  await db.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
