// The README's split deployment on this machine (SPEC §17), end to end: static pages built by
// `astro build` and served by a plain static server; the Node server and the Deno entry (through
// supabase/functions/formdown) on one throwaway Postgres database; the scheduled drain
// (functions/deno/drain.ts on Deno.cron); a loopback webhook receiver and the Postmark fake.
// 2,000 submits spread over both entries by a load balancer that probes their health
// (bench/split-load.ts), each entry stopped with SIGTERM mid-load and started again; then every
// count the SPEC promises. Usage: `node bench/split-deploy.ts [submits]`.
// Needs Postgres at 127.0.0.1:5432 (BENCH_PG_URL overrides); cleans up even on failure.
// BENCH_PROBE_MS: the balancer's health-probe interval (1000).
import "./reader-gone.ts";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { buildPages } from "../functions/node/build-pages.ts";
import { startPostmarkFake } from "../test/fakes/postmark.ts";
import { freePort } from "../test/faults/pg-cluster.ts";
import { checkLimits, checkLinks } from "./split-checks.ts";
import { PROBE_MS, runLoad } from "./split-load.ts";
import { DENO, type Instance, instance, ROOT, startReceiver, startStatic } from "./split-parts.ts";

const TOTAL = Number(process.argv[2] ?? 2000);
const ADMIN = "split-admin-token";
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const dbName = `formdown_split_${process.pid}_${Date.now()}`;
const work = mkdtempSync(join(tmpdir(), "formdown-split-"));
const outDir = join(ROOT, "node_modules/.cache", `formdown-split-${process.pid}`);
const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
const children: Instance[] = [];
const closers: (() => Promise<void>)[] = [];
let cleaned = false;

async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const c of children) c.kill();
  for (const close of closers) await close().catch(() => {});
  await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
  await admin.end().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
const deadline = setTimeout(() => {
  console.error("split-deploy: timed out after 40 minutes");
  void cleanUp().finally(() => process.exit(1));
}, 40 * 60_000);

const FORM = `---
title: Split
slug: split
humanness: false
notifications:
  email: [owner@example.com]
  strategy: { immediate_count: 1000 }
fields:
  - id: note
    type: text
---
`;
const LIMITED = FORM.replace("title: Split", "title: Limited").replace(
  "slug: split",
  "slug: limited",
);

async function main() {
  const t0 = performance.now();
  const say = (s: string) =>
    console.log(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${s}`);
  await admin.unsafe(`create database ${dbName}`);
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  const [nodePort, denoPort, staticPort] = [await freePort(), await freePort(), await freePort()];

  // the operator's repository: their form files beside Formdown's bundled examples
  const repo = join(work, "repo");
  mkdirSync(join(repo, "forms/@acme"), { recursive: true });
  cpSync(join(ROOT, "forms/@me"), join(repo, "forms/@me"), { recursive: true });
  writeFileSync(join(repo, "forms/@acme/split.md"), FORM);
  writeFileSync(join(repo, "forms/@acme/limited.md"), LIMITED);

  say("building the pages (astro build) …");
  // the API origin as an operator writes it: no scheme, a trailing slash
  await buildPages({
    outDir,
    quiet: true,
    env: { FORMDOWN_FORMS_DIR: join(repo, "forms"), FORMDOWN_BASE_URL: `127.0.0.1:${nodePort}/` },
  });
  const pages = await startStatic(join(outDir, "client"), staticPort);
  closers.push(pages.close);
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const postmark = await startPostmarkFake();
  closers.push(postmark.close);

  const env: Record<string, string> = {
    PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
    HOME: process.env.HOME ?? work,
    DATABASE_URL: dbUrl,
    FORMDOWN_BASE_URL: `127.0.0.1:${nodePort}/`,
    FORMDOWN_PUBLIC_BASE_URL: pages.url,
    FORMDOWN_ADMIN_TOKEN: ADMIN,
    POSTMARK_SERVER_TOKEN: "split-token",
    POSTMARK_API_URL: postmark.url,
    FORMDOWN_WEBHOOK_PRIVATE: "1",
    FORMDOWN_TRUSTED_PROXIES: "1",
    FORMDOWN_RATE_SUBMIT: "20",
    FORMDOWN_RATE_SYNC_MS: "50",
    FORMDOWN_REPO_DIR: repo,
    FORMDOWN_DATA_DIR: join(work, "data"),
    ASTRO_TELEMETRY_DISABLED: "1",
  };
  say("npx formdown migrate …");
  execFileSync(process.execPath, [join(ROOT, "cli/formdown.mjs"), "migrate"], {
    env,
    stdio: "inherit",
  });
  const node = instance(
    "node",
    process.execPath,
    [join(ROOT, "functions/node/start.ts")],
    { ...env, PORT: String(nodePort) },
    /Formdown is running/,
    `http://127.0.0.1:${nodePort}`,
  );
  const deno = instance(
    "deno",
    DENO,
    ["run", "-A", "supabase/functions/formdown/index.ts"],
    { ...env, PORT: String(denoPort) },
    /URL http/,
    `http://127.0.0.1:${denoPort}/formdown`,
  );
  const drain = instance(
    "drain",
    DENO,
    ["run", "-A", "--unstable-cron", "functions/deno/drain.ts"],
    { ...env, FORMDOWN_DRAIN_SCHEDULE: "* * * * *" },
    /Draining on the schedule/,
    "",
  );
  children.push(node, deno, drain);
  say("starting the Node server, the Deno entry (Supabase layout) and the drain …");
  await Promise.all([node.start(), deno.start(), drain.start()]);

  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${node.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const account = await api("POST", "/api/accounts", ADMIN, {
    handler: "acme",
    email: "owner@example.com",
  });
  const key = account.api_key as string;
  for (const [slug, markdown] of [
    ["split", FORM],
    ["limited", LIMITED],
  ] as const)
    await api("PUT", `/api/forms/${slug}`, key, { markdown });
  await api("POST", "/api/forms/split/webhooks", key, { url: `${receiver.url}/hook` });

  say(`${TOTAL} submits over both entries; SIGTERM of each in the middle …`);
  const restarts: Promise<string>[] = [];
  const restart = async (i: Instance) => {
    const stopped = await i.stop();
    await i.start();
    return `${i.name}: exit ${stopped.code} after ${stopped.ms} ms, started again`;
  };
  const load = await runLoad([node, deno], "split", TOTAL, 16, (done) => {
    if (done === Math.floor(TOTAL * 0.3)) restarts.push(restart(node));
    if (done === Math.floor(TOTAL * 0.65)) restarts.push(restart(deno));
  });
  for (const line of await Promise.all(restarts)) say(line);

  const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
  closers.push(() => db.end());
  const [form] = await db<{ id: string }[]>`select id from forms where slug = 'split'`;
  const count = async () => {
    const [r] = await db<{ stored: number; emailsDue: number; hooksDue: number }[]>`
      select (select count(*)::int from responses where form_id = ${form!.id}) as "stored",
             (select count(*)::int from outbox where form_id = ${form!.id} and status not in ('sent', 'kept')) as "emailsDue",
             (select count(*)::int from webhook_deliveries d join webhooks w on w.id = d.webhook_id
               where w.form_id = ${form!.id} and d.status <> 'delivered') as "hooksDue"`;
    return r!;
  };
  say("waiting for every email and delivery …");
  let state = await count();
  for (let i = 0; i < 600 && (state.emailsDue > 0 || state.hooksDue > 0); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    state = await count();
  }
  // a lease running out would send again: wait past the longest (timeout + 5 s) and look again
  await new Promise((r) => setTimeout(r, 20_000));

  const ids = [...load.acknowledged];
  const stored = await db<
    { id: string }[]
  >`select id from responses where id = any(${ids}::uuid[])`;
  const emails = postmark.sent.filter((m) => /Split/.test(m.Subject)).length;
  const dupIds = [...receiver.byWebhookId.values()].filter((n) => n > 1).length;
  const dupResponses = [...receiver.byResponse.values()].filter((n) => n > 1).length;
  const lines = [
    `submits: ${TOTAL}; acknowledged ${load.acknowledged.size} (node ${load.byEntry.node ?? 0}, deno ${load.byEntry.deno ?? 0}); stored ${state.stored}; acknowledged and stored ${stored.length}`,
    `emails (Postmark fake): ${emails} for ${state.stored} responses; still due ${state.emailsDue}`,
    `webhook deliveries: ${receiver.byWebhookId.size} webhook-ids for ${receiver.byResponse.size} responses; duplicate webhook-ids ${dupIds}, responses delivered twice ${dupResponses}; still due ${state.hooksDue}`,
    `load balancer (health probe every ${PROBE_MS} ms, out at the first 503 or failure): taken out ${JSON.stringify(load.probes.out)}, put back ${JSON.stringify(load.probes.back)}`,
    `requests cut without an answer: ${load.cut}${load.cut ? ` (${JSON.stringify(load.cuts)}; cut before any answer and sent again under the same Idempotency-Key: ${load.cutRetried})` : ""}; 5xx: ${load.other5xx + load.stopping503} (503 unavailable from a stopping instance, each retried: ${load.stopping503}; any other: ${load.other5xx}); refused connections (instance down, sent to the other): ${load.refused}; submits never acknowledged: ${load.lost}`,
    ...(await checkLimits(node, deno, db)),
    ...(await checkLinks(node, deno, key, pages.url, outDir)),
  ];
  console.log(`\n${lines.join("\n")}`);
  const ok =
    load.acknowledged.size === TOTAL &&
    stored.length === TOTAL &&
    state.stored === TOTAL &&
    // responses 1..1000 each email the owner (immediate_count is at most 1000, SPEC §23)
    emails === Math.min(TOTAL, 1000) &&
    receiver.byResponse.size === TOTAL &&
    dupIds === 0 &&
    dupResponses === 0 &&
    load.cut === 0 &&
    load.other5xx === 0 &&
    load.stopping503 === 0;
  console.log(ok ? "\nALL COUNTS HOLD" : "\nSOME COUNTS DO NOT HOLD");
  return ok;
}

main()
  .then(
    (ok) => (process.exitCode = ok ? 0 : 1),
    (error) => {
      console.error(error);
      for (const c of children) console.error(`--- ${c.name}\n${c.output().slice(-3000)}`);
      process.exitCode = 1;
    },
  )
  .finally(async () => {
    clearTimeout(deadline);
    await cleanUp();
  });
