// CSV export rows/s through the API vs Postgres' own `COPY … TO STDOUT` in the same run, and the
// process's peak RSS at each size (it should stay flat). Sizes: npx node bench/export.ts 10000 200000
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openPostgres } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { startServer } from "../functions/node/server.ts";
import { accountByHandler, createAccount } from "../functions/services/accounts.ts";
import { createForm } from "../functions/services/forms.ts";

const sizes = process.argv.slice(2).map(Number);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_${Date.now()}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const db = openPostgres(url.toString());
await migrate(db);
const dir = mkdtempSync(join(tmpdir(), "bench-export-"));
const s = await startServer({
  env: { FORMDOWN_DATA_DIR: dir, FORMDOWN_REPO_DIR: dir, FORMDOWN_RATE_API: "0" },
  db,
  port: 0,
  host: "127.0.0.1",
  skipRepositoryForms: true,
  outboxSender: false,
  log: { info() {}, error: console.error },
});
const key = (await createAccount(s.ctx, { handler: "bench" })).api_key;
const owner = (await accountByHandler(s.ctx, "bench"))!;
const raw = postgres(url.toString(), { max: 1, onnotice: () => {} });
try {
  for (const n of sizes) {
    const slug = `export-${n}`;
    const { form_id } = await createForm(
      s.ctx,
      owner,
      {
        title: "E",
        slug,
        humanness: false,
        fields: [
          { id: "name", type: "text" },
          { id: "score", type: "nps" },
          { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
        ],
      },
      { commit: false },
    );
    await db.query(
      `insert into responses (form_id, seq, payload, submitted_at)
       select $1, g, jsonb_build_object('name', 'Person ' || g, 'score', g % 11, 'tags', jsonb_build_array('a', 'c')), now() - (g || ' seconds')::interval
         from generate_series(1, $2::int) g`,
      [form_id, n],
    );
    let t = performance.now();
    const res = await fetch(`${s.url}/api/forms/${slug}/responses/export?format=csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += chunk.byteLength;
    const api = (performance.now() - t) / 1000;
    t = performance.now();
    const copy = raw
      .unsafe(
        `copy (select id, submitted_at, payload->>'name', payload->>'score', payload->'tags' from responses where form_id = '${form_id}' order by submitted_at desc, id desc) to stdout with csv header`,
      )
      .readable();
    let copyBytes = 0;
    for await (const chunk of await copy) copyBytes += (chunk as Buffer).length;
    const pg = (performance.now() - t) / 1000;
    const rss = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(
      `${String(n).padStart(8)} rows: API ${Math.round(n / api)} rows/s (${(bytes / 1e6).toFixed(1)} MB) · COPY ${Math.round(n / pg)} rows/s (${(copyBytes / 1e6).toFixed(1)} MB) · ratio ${(pg / api).toFixed(2)}x · peak RSS so far ${rss} MB`,
    );
    t = performance.now();
    await fetch(`${s.url}/api/forms/${slug}/stats`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.json());
    const stats = performance.now() - t;
    t = performance.now();
    await db.query(
      "select date_trunc('day', submitted_at) d, count(*) from responses where form_id = $1 and submitted_at >= now() - interval '14 days' group by 1",
      [form_id],
    );
    const rawStats = performance.now() - t;
    t = performance.now();
    await fetch(`${s.url}/api/forms/${slug}/report?period=all`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.text());
    const report = performance.now() - t;
    console.log(
      `           stats ${stats.toFixed(0)} ms (raw aggregate ${rawStats.toFixed(0)} ms) · report ${report.toFixed(0)} ms`,
    );
  }
} finally {
  await raw.end();
  await s.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
