// CSV, JSON and Markdown export rows/s through the API against Postgres' own `COPY … TO STDOUT`
// in the same run, and the server process's peak RSS at each size (it should stay flat); stats
// and report time against the raw SQL aggregate, and the HTML report against the Markdown one.
// Usage: node bench/export.ts [postgres|pglite] 10000 1000000
//
// It finishes or fails with a reason, and always cleans up: every wait has a deadline, a child
// that dies fails the run at once, the fill never goes through the server's statement timeout,
// and its database is dropped on any exit (an interrupted earlier run's too, after an hour).
import "./reader-gone.ts";
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { get } from "node:http";
import postgres from "postgres";
import { FLAG as LIFTOFF_ONLY } from "../functions/node/low-memory.ts";
import { startedEnv } from "./as-started.ts";

const [kind = "postgres", ...rest] = process.argv.slice(2);
const sizes = rest.map(Number);
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `formdown_bench_${Date.now()}`;
const admin = kind === "postgres" ? postgres(base, { max: 1, onnotice: () => {} }) : null;
const url = new URL(base);
url.pathname = `/${name}`;
/** Deadline of each wait: the fill of a million rows or one export (BENCH_STEP_S, seconds). */
const STEP_MS = Number(process.env.BENCH_STEP_S ?? 900) * 1000;

let child: ChildProcess | undefined;
let fill: ReturnType<typeof postgres> | undefined;
let cleaned: Promise<void> | undefined;
const cleanUp = () => {
  cleaned ??= (async () => {
    child?.kill("SIGKILL");
    await fill?.end({ timeout: 1 }).catch(() => {});
    if (admin) {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end({ timeout: 1 });
    }
  })();
  return cleaned;
};
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

/** A child that exits fails whatever waits on it, with its exit status as the reason. */
let childGone: (reason: Error) => void = () => {};
const died = new Promise<never>((_, reject) => {
  childGone = reject;
});
died.catch(() => {});
function within<T>(what: string, promise: Promise<T>, ms = STEP_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late, died]).finally(() => clearTimeout(timer));
}

if (admin) {
  // an earlier run that was killed before its clean-up left its database: drop those over an hour old
  const stale = await admin<{ datname: string }[]>`
    select datname from pg_database where datname ~ '^formdown_bench_[0-9]+$'`;
  for (const { datname } of stale)
    if (Date.now() - Number(datname.slice("formdown_bench_".length)) > 3_600_000)
      await admin.unsafe(`drop database if exists ${datname} with (force)`);
  await admin.unsafe(`create database ${name}`);
  fill = postgres(url.toString(), { max: 1, onnotice: () => {} });
}

const target = new URL("./export-target.ts", import.meta.url);
child = fork(target.pathname, [kind, url.toString()], {
  stdio: ["ignore", "pipe", "inherit", "ipc"],
  env: startedEnv(target),
  // a small heap: the export must fit in constant memory, not in whatever V8 would grow to
  // (PGlite: baseline wasm code only, as `npm start` runs it, functions/node/low-memory.ts)
  execArgv: [
    "--max-old-space-size=96",
    "--max-semi-space-size=4",
    ...(kind === "pglite" ? [LIFTOFF_ONLY] : []),
  ],
});
child.once("exit", (code, signal) =>
  childGone(new Error(`the server process exited (${signal ?? `status ${code}`})`)),
);
const ready = new Promise<[string, string]>((resolve) => {
  let out = "";
  child!.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const m = /READY (\S+) (\S+)/.exec(out);
    if (m) resolve([m[1]!, m[2]!]);
  });
});

/** A statement run by the server process (PGlite: it owns the database), answered or failed. */
const viaChild = (text: string, params: unknown[] = []) =>
  within(
    text.slice(0, 40),
    new Promise<Record<string, unknown>[]>((resolve, reject) => {
      child!.once("message", (m) => {
        const answer = m as { rows?: Record<string, unknown>[]; error?: string };
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer.rows!);
      });
      child!.send({ sql: text, params });
    }),
  );
/** The bench's own statements: on Postgres through its own connection, with no statement timeout. */
const sql = (text: string, params: unknown[] = []) =>
  fill
    ? within(
        text.slice(0, 40),
        fill.unsafe(text, params as never[]) as unknown as Promise<Record<string, unknown>[]>,
      )
    : viaChild(text, params);
try {
  const [api, key] = await within("the server's READY", ready, 120_000);
  const peakMb = () =>
    Math.round(
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024,
    );
  const auth = { authorization: `Bearer ${key}` };
  const timed = async <T>(fn: () => Promise<T>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  for (const n of sizes) {
    const slug = `export-${n}`;
    await fetch(`${api}/api/forms`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        title: "E",
        slug,
        humanness: false,
        fields: [
          { id: "name", type: "text" },
          { id: "score", type: "nps" },
          { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
        ],
      }),
    });
    const [{ id }] = (await sql("select id from forms where slug = $1", [slug])) as [
      { id: string },
    ];
    // in chunks: one statement of a million rows would hold PGlite's only connection for minutes
    for (let from = 1; from <= n; from += 100_000)
      await sql(
        `insert into responses (form_id, seq, payload, submitted_at)
         select $1, g, jsonb_build_object('name', 'Person ' || g, 'score', g % 11, 'tags', jsonb_build_array('a', 'c')), now() - (g || ' seconds')::interval
           from generate_series($2::int, $3::int) g`,
        [id, from, Math.min(n, from + 99_999)],
      );
    // the rows settle as a live table's would: autovacuum on Postgres, the server's minute upkeep
    // on PGlite (functions/db/embedded-upkeep.ts) set hint bits, the visibility map and the
    // statistics; otherwise whichever reader comes first pays for writing them
    await sql("vacuum analyze responses");
    const before = peakMb();
    let bytes = 0;
    // read with node:http, a plain byte reader like the COPY side's driver: fetch's Web stream
    // costs the client more CPU than the server spends, on the same two cores
    const exportOnce = (format = "csv", where = "") =>
      timed(() =>
        within(
          `the ${format} export`,
          new Promise<void>((resolve, reject) => {
            bytes = 0;
            get(
              `${api}/api/forms/${slug}/responses/export?format=${format}${where ? `&where=${encodeURIComponent(where)}` : ""}`,
              { headers: auth },
              (res) => {
                res.on("data", (chunk: Buffer) => {
                  bytes += chunk.byteLength;
                });
                res.on("end", () =>
                  res.statusCode === 200
                    ? resolve()
                    : reject(new Error(`the ${format} export answered ${res.statusCode}`)),
                );
                res.on("error", reject);
              },
            ).on("error", reject);
          }),
        ),
      );
    const copyOnce = async (condition = "") => {
      const raw = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const ms = await timed(() =>
        within(
          "COPY",
          (async () => {
            const stream = await raw
              .unsafe(
                `copy (select id, submitted_at, payload->>'name', payload->>'score', payload->'tags' from responses where form_id = '${id}'${condition} order by submitted_at desc, id desc) to stdout with csv header`,
              )
              .readable();
            for await (const _ of stream) void _;
          })(),
        ),
      );
      await raw.end();
      return ms;
    };
    // API and COPY alternate, best of three each: single runs move by ±30 % here
    const best = { api: Infinity, copy: Infinity };
    for (let round = 0; round < 3; round++) {
      best.api = Math.min(best.api, await exportOnce());
      if (admin) best.copy = Math.min(best.copy, await copyOnce());
    }
    let line = `${kind} ${String(n).padStart(8)} rows: API ${Math.round(n / (best.api / 1000))} rows/s (${(bytes / 1e6).toFixed(1)} MB), server peak RSS ${before} MB before the export, ${peakMb()} MB after`;
    if (admin)
      line += ` · COPY ${Math.round(n / (best.copy / 1000))} rows/s · ratio ${(best.copy / best.api).toFixed(2)}x`;
    console.log(line);
    // a filtered export (SPEC §18) against COPY with the same WHERE written by hand: the
    // detractors, 7 of every 11 rows
    if (admin) {
      const filtered = { api: Infinity, copy: Infinity };
      for (let round = 0; round < 3; round++) {
        filtered.api = Math.min(
          filtered.api,
          await exportOnce("csv", JSON.stringify([{ field: "score", op: "lte", value: 6 }])),
        );
        filtered.copy = Math.min(
          filtered.copy,
          await copyOnce(" and (payload->>'score')::numeric <= 6"),
        );
      }
      const rows = Math.round((n * 7) / 11);
      console.log(
        `         filtered csv export (score <= 6) ${Math.round(rows / (filtered.api / 1000))} rows/s (${(bytes / 1e6).toFixed(1)} MB) · COPY with the same WHERE ${Math.round(rows / (filtered.copy / 1000))} rows/s · ratio ${(filtered.copy / filtered.api).toFixed(2)}x (goal >= 0.8x)`,
      );
    }
    // JSON and Markdown carry more per row than CSV; the goal is against the same COPY
    for (const format of ["json", "markdown"]) {
      let ms = Infinity;
      for (let round = 0; round < 2; round++) ms = Math.min(ms, await exportOnce(format));
      let out = `         ${format} export ${Math.round(n / (ms / 1000))} rows/s (${(bytes / 1e6).toFixed(1)} MB), server peak RSS ${peakMb()} MB`;
      if (admin) out += ` · ${(best.copy / ms).toFixed(2)}x COPY (goal >= 0.6x)`;
      console.log(out);
    }
    const bestOf = async (fn: () => Promise<unknown>) => {
      let ms = Infinity;
      for (let round = 0; round < 3; round++) ms = Math.min(ms, await timed(fn));
      return ms;
    };
    // the first read of each counts the closed days and keeps them (functions/reports/closed-days.ts);
    // the reads after it scan only the days since: both are printed. A first read is measured as
    // often as the rest, best of three, each after what the one before kept is forgotten
    const firstOf = async (read: () => Promise<unknown>) => {
      let ms = Infinity;
      for (let round = 0; round < 3; round++) {
        await sql("delete from response_rollups where form_id = $1", [id]);
        ms = Math.min(ms, await timed(read));
      }
      return ms;
    };
    const stats = () =>
      fetch(`${api}/api/forms/${slug}/stats`, { headers: auth }).then((r) => r.json());
    const firstStatsMs = await firstOf(stats);
    const statsMs = await bestOf(stats);
    // the hand-written SQL: the stats' 14-day GROUP BY; for the report, which summarises two fields
    // (score, tags), one GROUP BY per field, run one after the other
    const RAW_STATS =
      "select date_trunc('day', submitted_at) d, count(*) from responses where form_id = $1 and submitted_at >= now() - interval '14 days' group by 1";
    const RAW_REPORT = [
      "select payload->>'score' v, count(*) from responses where form_id = $1 group by 1",
      "select t, count(*) from responses, jsonb_array_elements_text(payload->'tags') t where form_id = $1 group by 1",
    ];
    const rawReport = async (run: (text: string) => Promise<unknown>) => {
      for (const text of RAW_REPORT) await run(text);
    };
    const rawMs = await bestOf(() => sql(RAW_STATS, [id]));
    const report = () =>
      fetch(`${api}/api/forms/${slug}/report?period=all`, { headers: auth }).then((r) => r.text());
    const firstReportMs = await firstOf(report);
    const reportMs = await bestOf(report);
    // the HTML report gathers the same numbers and draws them: it should cost about the same
    let htmlBytes = 0;
    const htmlReportMs = await bestOf(() =>
      fetch(`${api}/api/forms/${slug}/report?period=all&format=html`, { headers: auth })
        .then((r) => r.text())
        .then((t) => {
          htmlBytes = Buffer.byteLength(t);
        }),
    );
    const rawReportMs = await bestOf(() => rawReport((text) => sql(text, [id])));
    console.log(
      `         first reads, which keep the closed days: stats ${firstStatsMs.toFixed(0)} ms (${(firstStatsMs / rawMs).toFixed(2)}x the raw aggregate) · report ${firstReportMs.toFixed(0)} ms (${(firstReportMs / rawReportMs).toFixed(2)}x)`,
    );
    console.log(
      `         stats ${statsMs.toFixed(0)} ms (raw aggregate ${rawMs.toFixed(0)} ms, ${(statsMs / rawMs).toFixed(2)}x) · report ${reportMs.toFixed(0)} ms (raw GROUP BY per field ${rawReportMs.toFixed(0)} ms, ${(reportMs / rawReportMs).toFixed(2)}x)`,
    );
    // the service's connections run without JIT compilation (functions/db/db.ts); the same
    // hand-written statements without it too, for the like-for-like figure
    if (admin) {
      const noJit = postgres(url.toString(), {
        max: 1,
        onnotice: () => {},
        connection: { jit: "off" },
      });
      const rawNoJit = (text: string) =>
        within(text.slice(0, 40), noJit.unsafe(text, [id]) as unknown as Promise<unknown>);
      const rawStatsNoJit = await bestOf(() => rawNoJit(RAW_STATS));
      const rawReportNoJit = await bestOf(() => rawReport(rawNoJit));
      await noJit.end();
      console.log(
        `         the raw statements without JIT too: stats ${(statsMs / rawStatsNoJit).toFixed(2)}x (${rawStatsNoJit.toFixed(0)} ms) · report ${(reportMs / rawReportNoJit).toFixed(2)}x (${rawReportNoJit.toFixed(0)} ms)`,
      );
    }
    console.log(
      `         report HTML ${htmlReportMs.toFixed(0)} ms (${(htmlBytes / 1024).toFixed(1)} KB), ${(htmlReportMs / reportMs).toFixed(2)}x the Markdown report (goal ≤ 1.5x)`,
    );
  }
} catch (error) {
  console.error(`bench/export failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
