// The deploy workflow's wait after the API's deploy hook: `/api/health` on FORMDOWN_URL answers
// 200 within the seconds given (default 600), else exit 1 naming what it answered. The pages of
// the forms deployed are checked later by `formdown deploy --check` (cli/lib/smoke.ts).
// Plain JavaScript for any Node ≥ 18: the workflow runs it before and without the project's tools.

const raw = (process.env.FORMDOWN_URL ?? "").trim();
if (!raw) {
  console.error("FORMDOWN_URL is not set.");
  process.exit(1);
}
const local = /^(localhost|127\.)/.test(raw);
let api;
try {
  const url = /^[a-z]+:\/\//i.test(raw) ? raw : `${local ? "http" : "https"}://${raw}`;
  api = new URL(url).href.replace(/\/+$/, "");
} catch {
  console.error(`FORMDOWN_URL: "${raw}" is not a URL.`);
  process.exit(1);
}

async function status(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return String(error.cause?.code ?? error.message);
  }
}

const until = Date.now() + Number(process.argv[2] ?? 600) * 1000;
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
