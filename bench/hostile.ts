// Hostile input (SPEC §19, §23): how fast each attack is refused, how big the answer is, and what
// the largest form that still validates costs to validate and render (the bound: 100 ms of one
// core); for issue 41's items 1, 2 and 8, the worst event-loop block while each is answered (the
// goal: at most 1 s) and the answer's size, with two variants found on the way (the MCP tool call
// of 91,920 arguments, a long translation beside a form of 500 fields). History: bench/README.md.
// Usage: npx node bench/hostile.ts [rounds] [pglite|postgres]   (pages are timed when `npm run
// build` has run; postgres: a database of its own on BENCH_DATABASE_URL's server, dropped after).
// Figures are CPU time of this process (server and client share it) and medians over rounds; the
// submit latency is compared with the same submit alone, in the same run, as a ratio.

import "./reader-gone.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type Db, openPostgres, wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { startServer } from "../functions/node/server.ts";
import { createAccount } from "../functions/services/accounts.ts";
import { parseFormFile } from "../src/core/form-file.ts";
import { validateForm } from "../src/core/validate-form.ts";
import { heaviestPageForm } from "../test/helpers/heavy-form.ts";
import { aliasBombFile, hugeScale, largestForm } from "../test/security/hostile-forms.ts";

const rounds = Number(process.argv[2] ?? 7);
const kind = process.argv[3] === "postgres" ? "postgres" : "pglite";
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
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const admin = kind === "postgres" ? postgres(base, { max: 1, onnotice: () => {} }) : null;
const dbName = `formdown_bench_${Date.now()}`;
let db: Db;
if (admin) {
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  db = openPostgres(url.toString());
} else db = wrapPglite(await openPglite(join(dir, "pg")));
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
  // the heaviest page logic allowed (MAX_EXPRESSION_NODES, MAX_PAGE_CONDITIONS)
  const logic = await post("/api/forms", heaviestPageForm("heaviest"));
  if (made.status !== 201 || big.status !== 201 || logic.status !== 201)
    throw new Error(`setup failed: ${made.status} ${big.status} ${logic.status}`);
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
  const page = async (slug: string) => {
    const start = process.cpuUsage();
    const t = performance.now();
    const res = await fetch(`${s.url}/@${s.handler}/${slug}`);
    const html = await res.text();
    const d = process.cpuUsage(start);
    return {
      status: res.status,
      bytes: html.length,
      cpu: (d.user + d.system) / 1000,
      ms: performance.now() - t,
    };
  };
  for (const [slug, name] of [
    ["largest", "largest valid form"],
    ["heaviest", "heaviest logic"],
  ]) {
    const first = await page(slug!);
    if (first.status === 404) {
      console.log("pages: not built (run `npm run build` first) — render not timed");
      break;
    }
    const runs = [first];
    for (let r = 1; r < rounds; r++) runs.push(await page(slug!));
    console.log(
      `${name} page: HTTP ${first.status}, ${first.bytes} B HTML, ${fmt(median(runs.map((r) => r.cpu)))} ms CPU (server and client), ${fmt(median(runs.map((r) => r.ms)))} ms wall`,
    );
  }
  await stalls(s.url, s.apiKey, post);
} finally {
  await server.close();
  if (admin) {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

/**
 * Issue 41's items 1, 2 and 8, each sent as the attacker sent it: the worst event-loop block while
 * the server answers (a timer due every 5 ms: how late it ran at worst; and how long /api/health
 * took when asked meanwhile) and the answer's size.
 */
async function stalls(
  url: string,
  key: string,
  post: (path: string, body: unknown, key?: string | null) => Promise<{ status: number }>,
) {
  const fields = Array.from({ length: 500 }, (_, i) => ({ id: `f${i}`, type: "text" }));
  const setup = [
    await post("/api/forms", { title: "W", slug: "wide", humanness: false, fields }),
    await post("/api/forms", {
      title: "V",
      slug: "versions",
      humanness: false,
      fields: [{ id: "a", type: "text" }],
    }),
    await post("/api/forms/versions/submit", { fields: { a: "x" } }, null),
  ];
  if (setup.some((r) => r.status !== 201)) throw new Error("stall setup failed");
  const w = encodeURIComponent(
    JSON.stringify([{ field: "version", op: "eq", value: 99999999999 }]),
  );
  const unknown = JSON.stringify({
    fields: Object.fromEntries(Array.from({ length: 91_920 }, (_, i) => [`k${i}`, 1])),
  });
  const form =
    "---\ntitle: E\nslug: event\nhumanness: false\nlanguages: [de]\nfields:\n  - id: role\n    type: text\n---\n";
  const de = `---\ntitle: V\nfields:\n${Array.from({ length: 12_720 }, (_, i) => `  f${i}: {label: x}`).join("\n")}\n---\n`;
  // the same file beside a form of 500 labelled fields, whose texts let a translation be that long
  const wideForm = `---\ntitle: E\nslug: event-wide\nhumanness: false\nlanguages: [de]\nfields:\n${Array.from({ length: 500 }, (_, i) => `  - id: q${i}\n    type: text\n    label: Question number ${i}`).join("\n")}\n---\n`;
  const wideDe = `---\ntitle: V\nfields:\n${Array.from({ length: 10_000 }, (_, i) => `  f${i}: {label: x}`).join("\n")}\n---\n`;
  const mcp = (name: string, args: unknown) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    });
  const auth = { authorization: `Bearer ${key}` };
  const json = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const cases: [string, string, RequestInit, boolean][] = [
    [
      "1 where version 99999999999: CSV export",
      `/api/forms/versions/responses/export?format=csv&where=${w}`,
      { headers: auth },
      true,
    ],
    [
      "1 … the same export again",
      `/api/forms/versions/responses/export?format=csv&where=${w}`,
      { headers: auth },
      true,
    ],
    [
      "1 … MCP export_responses",
      "/api/mcp",
      {
        method: "POST",
        headers: { ...json, ...auth },
        body: mcp("export_responses", {
          slug: "versions",
          where: [{ field: "version", op: "eq", value: 99999999999 }],
        }),
      },
      true,
    ],
    ["1 … /responses", `/api/forms/versions/responses?where=${w}`, { headers: auth }, true],
    ["1 … /stats", `/api/forms/versions/stats?where=${w}`, { headers: auth }, true],
    ["1 … /report", `/api/forms/versions/report?where=${w}`, { headers: auth }, true],
    [
      "2 translation file, 12,720 unknown fields (PUT)",
      "/api/forms/event",
      {
        method: "PUT",
        headers: { ...json, ...auth },
        body: JSON.stringify({ markdown: form, translations: { de: { content: de } } }),
      },
      true,
    ],
    [
      "2 … 10,000 unknown fields beside a form of 500 (PUT, within the length bound)",
      "/api/forms/event-wide",
      {
        method: "PUT",
        headers: { ...json, ...auth },
        body: JSON.stringify({ markdown: wideForm, translations: { de: { content: wideDe } } }),
      },
      true,
    ],
    [
      "8 submit of 91,920 unknown ids, 2-field form",
      "/api/forms/versions/submit",
      { method: "POST", headers: json, body: unknown },
      true,
    ],
    [
      "8 … on a 500-field form",
      "/api/forms/wide/submit",
      { method: "POST", headers: json, body: unknown },
      true,
    ],
    [
      "8 … a tool call of 91,920 unknown arguments (MCP list_forms)",
      "/api/mcp",
      {
        method: "POST",
        headers: { ...json, ...auth },
        body: mcp("list_forms", JSON.parse(unknown).fields),
      },
      true,
    ],
    [
      "8 … four at once on the 500-field form",
      "/api/forms/wide/submit",
      { method: "POST", headers: json, body: unknown },
      false,
    ],
  ];
  console.log(
    "issue 41 (SPEC §23: no request holds the event loop more than 1 s; error answers at most 64 KB):",
  );
  const once = async (path: string, init: RequestInit, alone: boolean) => {
    const lag = lagProbe();
    const t = performance.now();
    const sent = Array.from({ length: alone ? 1 : 4 }, () =>
      fetch(`${url}${path}`, init).then(async (r) => ({
        status: r.status,
        bytes: (await r.arrayBuffer()).byteLength,
      })),
    );
    // asked a moment later, while the server is at it: answered when the loop is free again
    const health = new Promise((r) => setTimeout(r, 20)).then(async () => {
      const h = performance.now();
      await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
      return performance.now() - h;
    });
    const answers = await Promise.all(sent);
    const healthMs = await health;
    return { ...answers[0]!, wall: performance.now() - t, block: lag.stop(), healthMs };
  };
  for (const [name, path, init, alone] of cases) {
    // the first of each loads and compiles what it reaches (once per process); then warm runs
    const cold = await once(path, init, alone);
    const warm = [];
    for (let r = 0; r < Math.max(1, rounds); r++) warm.push(await once(path, init, alone));
    const worst = Math.max(...warm.map((w) => w.block));
    console.log(
      `  ${name}: HTTP ${cold.status}, ${cold.bytes} B answer; worst event-loop block ${fmt(median(warm.map((w) => w.block)))} ms (median of ${warm.length}, worst ${fmt(worst)}; first ${fmt(cold.block)}), /api/health meanwhile ${fmt(median(warm.map((w) => w.healthMs)))} ms, ${fmt(median(warm.map((w) => w.wall)))} ms wall`,
    );
  }
}

/** A timer due every 5 ms: the longest it was kept waiting past that is the worst block. */
function lagProbe() {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last - 5, 0);
    },
  };
}
