// XLSX export (SPEC §26, issue 46: 1M responses with the server's RSS ≤ 200 MB, typed cells). N
// responses seeded in Postgres or the embedded PGlite through one server process, which then
// stops as `npm start` stops; a second server process started on the same data — as a user's
// server runs long after the responses came — downloads them as format=xlsx while its RSS is
// sampled (does it grow with the rows?), and the file is read back with exceljs, a reader of its
// own, checking every row's typed cells; the CSV export of the same rows after it. The servers
// run with `npm start`'s flags (functions/node/low-memory.ts).
// Usage: node bench/xlsx.ts [postgres|pglite] 1000000   (one size per run; Postgres:
//   BENCH_DATABASE_URL or the local test one; BENCH_TRACE=1 prints every memory sample;
//   BENCH_DATA_DIR=<dir>: PGlite's data kept there, and a second run on it skips the filling)
import "./reader-gone.ts";
import { type ChildProcess, fork } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { serverFlags } from "../functions/node/low-memory.ts";
import { startedEnv } from "./as-started.ts";
import { readBackXlsx, XLSX_FIELDS } from "./xlsx-read-back.ts";

const [kind = "postgres", size = "1000000"] = process.argv.slice(2);
if (kind !== "postgres" && kind !== "pglite") throw new Error("usage: [postgres|pglite] N");
const n = Number(size);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_${Date.now()}`;
const admin = kind === "postgres" ? postgres(base, { max: 1, onnotice: () => {} }) : null;
const url = new URL(base);
url.pathname = `/${name}`;
if (admin) await admin.unsafe(`create database ${name}`);
const fill = admin ? postgres(url.toString(), { max: 1, onnotice: () => {} }) : null;
const kept = process.env.BENCH_DATA_DIR;
const dir = kept ?? mkdtempSync(join(tmpdir(), "bench-xlsx-"));
const filled = kept !== undefined && kind === "pglite" && existsSync(join(dir, "bench-key"));
const target = new URL("./export-target.ts", import.meta.url);
// the flags `npm start` runs the server with: V8's heap settings, baseline wasm code on PGlite
const FLAGS = serverFlags(kind === "pglite");
const env = startedEnv(target);
let child: ChildProcess | null = null;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The server stopped as `npm start` stops it: kept data is then whole for the next start. */
const stop = async () => {
  const c = child;
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once("exit", r));
  c.send({ close: true });
  await Promise.race([exited, pause(30_000)]);
  c.kill("SIGKILL");
};
const cleanUp = async () => {
  await stop();
  if (!kept) rmSync(dir, { recursive: true, force: true });
  await fill?.end({ timeout: 1 }).catch(() => {});
  await admin?.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
  await admin?.end({ timeout: 1 });
};

/** A server process on the bench's data; its address and the bench account's key. */
async function serve(): Promise<[string, string]> {
  child = fork(target.pathname, [kind, url.toString(), dir], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
    env,
    execArgv: FLAGS,
  });
  const c = child;
  return await new Promise((resolve, reject) => {
    let out = "";
    c.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
    c.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) resolve([m[1]!, m[2]!]);
    });
  });
}
/** A statement: on Postgres through the bench's own connection, on PGlite through its owner. */
const sql = (text: string, params: unknown[] = []) =>
  fill
    ? (fill.unsafe(text, params as never[]) as unknown as Promise<Record<string, unknown>[]>)
    : new Promise<Record<string, unknown>[]>((resolve, reject) => {
        child!.once("message", (m) => {
          const answer = m as { rows?: Record<string, unknown>[]; error?: string };
          if (answer.error) reject(new Error(answer.error));
          else resolve(answer.rows!);
        });
        child!.send({ sql: text, params });
      });
const mb = (field: string) =>
  Math.round(
    Number(
      new RegExp(`${field}:\\s+(\\d+)`).exec(
        readFileSync(`/proc/${child!.pid}/status`, "utf8"),
      )![1],
    ) / 1024,
  );

try {
  const slug = `xlsx-${n}`;
  let afterFill = "";
  if (!filled) {
    const [api, key] = await serve();
    await fetch(`${api}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "X", slug, humanness: false, fields: XLSX_FIELDS }),
    });
    const [form] = await sql("select id from forms where slug = $1", [slug]);
    // in chunks: one statement of a million rows would hold PGlite's only connection for minutes
    for (let from = 1; from <= n; from += 100_000)
      await sql(
        `insert into responses (form_id, seq, payload, submitted_at)
         select $1, g, jsonb_build_object('name', 'Person ' || g, 'score', g % 11, 'day', '2026-11-27',
                'tags', jsonb_build_array('a', 'c')), now() - (g || ' seconds')::interval
           from generate_series($2::int, $3::int) g`,
        [form!.id, from, Math.min(n, from + 99_999)],
      );
    await sql("vacuum analyze responses");
    afterFill = `${mb("VmRSS")} MB after filling in that process (peak ${mb("VmHWM")})`;
    await stop();
  }
  // the server as it runs later: started on the data, idle for a moment, then asked
  const [api, key] = await serve();
  const auth = { authorization: `Bearer ${key}` };
  // the server's own account of its memory at the highest heap seen (MB): heap, external, buffers
  let memory = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  child!.on("message", (m: { memory?: typeof memory }) => {
    if (m.memory && m.memory.heapTotal >= memory.heapTotal) memory = m.memory;
    if (m.memory && process.env.BENCH_TRACE) console.log("TRACE", mb("VmRSS"), inMb(m.memory));
  });
  const inMb = (m: typeof memory) =>
    Object.entries(m)
      .filter(([k]) => k !== "rss")
      .map(([k, v]) => `${k} ${Math.round(v / 1048576)}`)
      .join(", ");
  /** One download to `file` (or nowhere), the server's RSS sampled every 100 ms with the bytes so far. */
  const download = (format: string, file?: string) =>
    new Promise<{ ms: number; bytes: number; samples: [number, number][] }>((resolve, reject) => {
      const t = performance.now();
      const samples: [number, number][] = [];
      let bytes = 0;
      const sampler = setInterval(() => {
        samples.push([bytes, mb("VmRSS")]);
        child!.send({ memory: true });
      }, 100);
      const sink = file ? createWriteStream(file) : null;
      get(
        `${api}/api/forms/${slug}/responses/export?format=${format}`,
        { headers: auth, agent: false },
        (res) => {
          res.on("data", (c: Buffer) => {
            bytes += c.byteLength;
            sink?.write(c);
          });
          res.on("end", () => {
            clearInterval(sampler);
            samples.push([bytes, mb("VmRSS")]);
            const done = () =>
              res.statusCode === 200
                ? resolve({ ms: performance.now() - t, bytes, samples })
                : reject(new Error(`${format}: ${res.statusCode}`));
            if (sink) sink.end(done);
            else done();
          });
        },
      ).on("error", reject);
    });
  /** The largest RSS sampled in each quarter of the download: flat if memory does not grow with rows. */
  const quarters = (r: { bytes: number; samples: [number, number][] }) =>
    [1, 2, 3, 4].map((q) =>
      Math.max(
        0,
        ...r.samples
          .filter(([b]) => b > ((q - 1) * r.bytes) / 4 && b <= (q * r.bytes) / 4)
          .map(([, rss]) => rss),
      ),
    );

  await pause(2000);
  const before = mb("VmRSS");
  const startPeak = mb("VmHWM");
  memory = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  child!.send({ memory: true });
  await pause(200);
  const rest = inMb(memory);
  memory = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const file = join(dir, `${slug}.xlsx`);
  const xlsx = await download("xlsx", file);
  const peak = mb("VmHWM");
  // the CSV after: the XLSX's peak is its own (a process's peak never comes down)
  const csv = await download("csv");
  console.log(
    `${kind} ${String(n).padStart(8)} rows, server flags ${FLAGS.join(" ") || "none"}: xlsx ${Math.round(n / (xlsx.ms / 1000))} rows/s (${(xlsx.bytes / 1e6).toFixed(1)} MB in ${(xlsx.ms / 1000).toFixed(1)} s, ${(xlsx.bytes / 1e6 / (xlsx.ms / 1000)).toFixed(2)} MB/s), csv ${Math.round(n / (csv.ms / 1000))} rows/s`,
  );
  if (afterFill) console.log(`  the filling server: ${afterFill}, then stopped`);
  console.log(
    `  restarted server RSS: ${before} MB before the XLSX (its start's peak ${startPeak}), peak ${peak} MB during it (goal <= 200), ${(peak / before).toFixed(2)}x; by quarter of its bytes ${quarters(xlsx).join(" / ")} MB; at its largest heap: ${inMb(memory)} MB (before it: ${rest})`,
  );
  const back = await readBackXlsx(file, n);
  console.log(
    `  read back with exceljs: ${back.rows} rows, header ${JSON.stringify(back.header)}, ${back.mistyped} rows with a cell of the wrong type${back.first ? `, first mistyped: ${back.first}` : ""}`,
  );
  rmSync(file, { force: true });
} finally {
  await cleanUp();
}
