// The deploy workflow's smoke check (SPEC §17): `/api/health` on FORMDOWN_URL answers 200, and
// each changed form file's page (forms/@<handler>/<slug>.md) answers 200 on FORMDOWN_PAGES_URL
// (or on the API origin, which renders pages too, when no static host is set). Exits 1 naming
// what failed. `--wait <seconds>`: only wait for the health check to pass (after an API deploy).
// Plain JavaScript for any Node ≥ 18: the workflow runs it before and without the project's tools.

const origin = (name, value) => {
  const raw = (value ?? "").trim();
  if (!raw) return undefined;
  const local = /^(localhost|127\.)/.test(raw);
  const url = /^[a-z]+:\/\//i.test(raw) ? raw : `${local ? "http" : "https"}://${raw}`;
  try {
    return new URL(url).href.replace(/\/+$/, "");
  } catch {
    console.error(`${name}: "${raw}" is not a URL.`);
    process.exit(1);
  }
};

const api = origin("FORMDOWN_URL", process.env.FORMDOWN_URL);
if (!api) {
  console.error("FORMDOWN_URL is not set.");
  process.exit(1);
}
const pages = origin("FORMDOWN_PAGES_URL", process.env.FORMDOWN_PAGES_URL) ?? api;
const args = process.argv.slice(2);

async function status(url) {
  try {
    const res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return String(error.cause?.code ?? error.message);
  }
}

if (args[0] === "--wait") {
  const until = Date.now() + Number(args[1] ?? 600) * 1000;
  for (;;) {
    const s = await status(`${api}/api/health`);
    if (s === 200) break;
    if (Date.now() > until) {
      console.error(`${api}/api/health still answers ${s}.`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
  console.log(`${api}/api/health answers 200.`);
  process.exit(0);
}

const checks = [`${api}/api/health`];
for (const file of args) {
  const m = /^forms\/@([^/]+)\/([^/.]+)\.md$/.exec(file);
  if (m) checks.push(`${pages}/@${m[1]}/${m[2]}/`);
}
let failed = 0;
for (const url of checks) {
  // a CDN may take a moment to serve what was just published
  let s = await status(url);
  for (let i = 0; i < 6 && s !== 200; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    s = await status(url);
  }
  console.log(`${s === 200 ? "ok  " : "FAIL"} ${s} ${url}`);
  if (s !== 200) failed++;
}
process.exit(failed ? 1 : 0);
