// Memory of the embedded server as a user runs it (issue 16 item 2): `node bench/footprint.ts
// [submits]` starts `node functions/node/start.ts` on a fresh PGlite data directory, reads its
// RSS from /proc once idle, then again during and after `submits` (default 20,000) submits from
// 64 clients, and prints idle, peak (VmHWM) and settled figures. Extra environment for the
// server passes through (e.g. DATABASE_URL=… for the Postgres mode). The first start's figure is
// the sum over the server and its children (Astro build when dist/ is missing or stale, the
// PGlite init child), sampled every 50 ms; `npm start` adds npm's own ~65 MB on top. For the
// fresh-clone figure remove dist/ first; `rm -rf node_modules/.cache/formdown` shows the start
// without the initdb template that `npm install` leaves.
import "./reader-gone.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstKey, startChild } from "../test/faults/child-server.ts";
import { FAULT_FORM, submitLoad, summarise } from "../test/faults/load.ts";

const total = Number(process.argv[2] ?? 20_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

/** Proportional set size: shared pages (the node binary every process maps) count once in a sum. */
function pss(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return Math.round(Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024);
}

/** RSS and PSS of every process below this one (the server and any child of it), in MB. */
function descendants(pid = process.pid): { rss: number; pss: number } {
  const total = { rss: 0, pss: 0 };
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
  } catch {
    return total;
  }
  for (const c of children.filter(Boolean)) {
    try {
      const below = descendants(Number(c));
      total.rss += memory(Number(c)).rss + below.rss;
      total.pss += pss(Number(c)) + below.pss;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

const dataDir = mkdtempSync(join(tmpdir(), "formdown-footprint-"));
// the first start creates the database (in a child process of the server): the most memory
// the machine gives to Formdown at once during it
let startPeak = 0;
let startPss = 0;
const startSampler = setInterval(() => {
  const now = descendants();
  startPeak = Math.max(startPeak, now.rss);
  startPss = Math.max(startPss, now.pss);
}, 50);
const startedAt = performance.now();
// FOOTPRINT_NODE_ARGS: flags for the server's node, to compare (e.g. "--liftoff-only")
const nodeArgs = process.env.FOOTPRINT_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const server = await startChild({ dataDir, nodeArgs });
const startMs = Math.round(performance.now() - startedAt);
clearInterval(startSampler);
const pid = server.child.pid!;
try {
  const key = firstKey(dataDir);
  await sleep(5000);
  const idle = memory(pid);
  const res = await fetch(`${server.url}/api/forms`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(FAULT_FORM),
  });
  if (res.status !== 201) throw new Error(`create form: ${res.status}`);
  let n = 0;
  let during = 0;
  const sampler = setInterval(() => {
    during = Math.max(during, memory(pid).rss);
  }, 200);
  const t = performance.now();
  const s = summarise(
    await submitLoad(server.url, FAULT_FORM.slug, { concurrency: 64, stop: () => n++ >= total }),
  );
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const loaded = memory(pid);
  await sleep(5000);
  const settled = memory(pid);
  console.log(
    `first start ${startMs} ms, all its processes at most ${startPeak} MB RSS summed, ${startPss} MB PSS summed; idle RSS ${idle.rss} MB (peak so far ${idle.peak} MB); ${total} submits, 64 clients: ${JSON.stringify(s.byStatus)} in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s); RSS under load max ${during} MB, VmHWM ${loaded.peak} MB; 5 s later ${settled.rss} MB`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
