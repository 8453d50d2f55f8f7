// Hostile input (SPEC §19): how fast each attack is refused, how big the answer is, and what the
// largest form that still validates costs to validate and render (the bound: 100 ms of one core).
// Usage: npx node bench/hostile.ts [rounds]   (pages are timed when `npm run build` has run).
// Figures are CPU time of this process (server and client share it) and medians over rounds; the
// submit latency is compared with the same submit alone, in the same run, as a ratio.

import "./reader-gone.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { startServer } from "../functions/node/server.ts";
import { createAccount } from "../functions/services/accounts.ts";
import { parseFormFile } from "../src/core/form-file.ts";
import { validateForm } from "../src/core/validate-form.ts";
import { aliasBombFile, hugeScale, largestForm } from "../test/security/hostile-forms.ts";

const rounds = Number(process.argv[2] ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = (f: () => unknown) => {
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
const fmt = (n: number) => n.toFixed(1);

// the largest valid form: as many 1,000-option radio fields as the bounds allow
let fields = 1;
while (validateForm(largestForm(fields + 1, 1000)).ok) fields++;
const largest = largestForm(fields, 1000);
const bomb = aliasBombFile();

console.log(
  `alias bomb (${bomb.length} B file) parse:   ${fmt(median(Array.from({ length: rounds }, () => cpuMs(() => parseFormFile(bomb)))))} ms CPU`,
);
console.log(
  `200,000-point scale validate:  ${fmt(median(Array.from({ length: rounds }, () => cpuMs(() => validateForm(hugeScale)))))} ms CPU`,
);
console.log(
  `largest valid form (${fields} × 1,000 options, ${JSON.stringify(largest).length} B) validate: ${fmt(median(Array.from({ length: rounds }, () => cpuMs(() => validateForm(largest)))))} ms CPU`,
);

const dir = mkdtempSync(join(tmpdir(), "bench-hostile-"));
const db = wrapPglite(await openPglite(join(dir, "pg")));
await migrate(db);
const server = await startServer({
  env: {
    FORMDOWN_DATA_DIR: dir,
    FORMDOWN_REPO_DIR: dir,
    FORMDOWN_RATE_SUBMIT: "0",
    FORMDOWN_RATE_API: "0",
  },
  db,
  port: 0,
  host: "127.0.0.1",
  skipRepositoryForms: true,
  outboxSender: false,
  log: { info() {}, error: console.error },
});
const me =
  server.firstKey ??
  (await createAccount(server.ctx, { handler: "me" }).then((a) => ({
    handler: a.handler,
    key: a.api_key,
  })));
const s = { url: server.url, apiKey: me!.key, handler: me!.handler };
try {
  const post = async (path: string, body: unknown, key: string | null = s.apiKey) => {
    const t = performance.now();
    const res = await fetch(`${s.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, bytes: text.length, ms: performance.now() - t };
  };
  const made = await post("/api/forms", {
    title: "S",
    slug: "s",
    humanness: false,
    fields: [{ id: "a", type: "text" }],
  });
  const big = await post("/api/forms", largest);
  if (made.status !== 201 || big.status !== 201)
    throw new Error(`setup failed: ${made.status} ${big.status}`);
  const submit = () => post("/api/forms/s/submit", { fields: { a: "hi" } }, null);
  for (const [name, body] of [
    ["alias bomb", { markdown: bomb }],
    ["200,000-point scale", hugeScale],
  ] as const) {
    const alone: number[] = [];
    const beside: number[] = [];
    const attack: number[] = [];
    let answer = { status: 0, bytes: 0 };
    for (let r = 0; r < rounds; r++) {
      alone.push((await submit()).ms);
      const [a, sub] = await Promise.all([post("/api/forms", body), submit()]);
      attack.push(a.ms);
      beside.push(sub.ms);
      answer = a;
    }
    console.log(
      `${name}: HTTP ${answer.status}, ${answer.bytes} B answer, ${fmt(median(attack))} ms wall; a concurrent submit ${fmt(median(beside))} ms vs ${fmt(median(alone))} ms alone (×${(median(beside) / median(alone)).toFixed(2)})`,
    );
  }
  const page = async () => {
    const start = process.cpuUsage();
    const t = performance.now();
    const res = await fetch(`${s.url}/@${s.handler}/largest`);
    const html = await res.text();
    const d = process.cpuUsage(start);
    return {
      status: res.status,
      bytes: html.length,
      cpu: (d.user + d.system) / 1000,
      ms: performance.now() - t,
    };
  };
  const first = await page();
  if (first.status === 404)
    console.log("pages: not built (run `npm run build` first) — render not timed");
  else {
    const runs = [first];
    for (let r = 1; r < rounds; r++) runs.push(await page());
    console.log(
      `largest valid form page: HTTP ${first.status}, ${first.bytes} B HTML, ${fmt(median(runs.map((r) => r.cpu)))} ms CPU (server and client), ${fmt(median(runs.map((r) => r.ms)))} ms wall`,
    );
  }
} finally {
  await server.close();
}
