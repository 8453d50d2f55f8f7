// XLSX export (SPEC §26): rows/s and the server process's peak RSS while it streams N rows as a
// spreadsheet, against the CSV export of the same rows in the same run (goal: RSS ≤ 200 MB at 1M).
// Usage: node bench/xlsx.ts 100000 1000000   (Postgres: BENCH_DATABASE_URL or the local test one)
import "./reader-gone.ts";
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { get } from "node:http";
import postgres from "postgres";
import { startedEnv } from "./as-started.ts";

const sizes = process.argv.slice(2).map(Number);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_${Date.now()}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
const url = new URL(base);
url.pathname = `/${name}`;
await admin.unsafe(`create database ${name}`);
const fill = postgres(url.toString(), { max: 1, onnotice: () => {} });
const target = new URL("./export-target.ts", import.meta.url);
// the same small heap as bench/export.ts: the export must fit in constant memory
const child = fork(target.pathname, ["postgres", url.toString()], {
  stdio: ["ignore", "pipe", "inherit", "ipc"],
  env: startedEnv(target),
  execArgv: ["--max-old-space-size=96", "--max-semi-space-size=4"],
});
const cleanUp = async () => {
  child.kill("SIGKILL");
  await fill.end({ timeout: 1 }).catch(() => {});
  await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
  await admin.end({ timeout: 1 });
};
try {
  const [api, key] = await new Promise<[string, string]>((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) resolve([m[1]!, m[2]!]);
    });
  });
  const auth = { authorization: `Bearer ${key}` };
  const peakMb = () =>
    Math.round(
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024,
    );
  const exportOnce = (slug: string, format: string) =>
    new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
      const t = performance.now();
      let bytes = 0;
      get(
        `${api}/api/forms/${slug}/responses/export?format=${format}`,
        { headers: auth },
        (res) => {
          res.on("data", (c: Buffer) => {
            bytes += c.byteLength;
          });
          res.on("end", () =>
            res.statusCode === 200
              ? resolve({ ms: performance.now() - t, bytes })
              : reject(new Error(`${format}: ${res.statusCode}`)),
          );
        },
      ).on("error", reject);
    });
  for (const n of sizes) {
    const slug = `xlsx-${n}`;
    await fetch(`${api}/api/forms`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        title: "X",
        slug,
        humanness: false,
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "score", type: "nps", label: "Score" },
          { id: "day", type: "date", label: "Day" },
          { id: "tags", type: "checkbox", label: "Tags", options: ["a", "b", "c"] },
        ],
      }),
    });
    const [form] = await fill<{ id: string }[]>`select id from forms where slug = ${slug}`;
    const id = form!.id;
    await fill.unsafe(
      `insert into responses (form_id, seq, payload, submitted_at)
       select $1, g, jsonb_build_object('name', 'Person ' || g, 'score', g % 11, 'day', '2026-11-27',
              'tags', jsonb_build_array('a', 'c')), now() - (g || ' seconds')::interval
         from generate_series(1, $2::int) g`,
      [id, n],
    );
    await fill.unsafe("vacuum analyze responses");
    const before = peakMb();
    const csv = await exportOnce(slug, "csv");
    const afterCsv = peakMb();
    const xlsx = await exportOnce(slug, "xlsx");
    console.log(
      `${String(n).padStart(8)} rows: xlsx ${Math.round(n / (xlsx.ms / 1000))} rows/s (${(xlsx.bytes / 1e6).toFixed(1)} MB), server peak RSS ${before} MB before, ${afterCsv} MB after CSV, ${peakMb()} MB after XLSX (goal <= 200) · csv ${Math.round(n / (csv.ms / 1000))} rows/s`,
    );
  }
} finally {
  await cleanUp();
}
