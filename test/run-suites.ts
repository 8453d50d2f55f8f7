// Runs every vitest suite and prints the plain `N passed, N failed` line CI reads.
// Also decides which projects run (vitest.config.ts) and whether the Postgres runs happen.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { ensurePagesBuilt, withBuildLock } from "../functions/node/build-pages.ts";
import { COMPILE_CACHE } from "../functions/node/low-memory.ts";

const report = ".vitest-report.json";

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// Node keeps the compiled code of every module it loads here: the CLI, the servers and the
// scripts the suites start load again from it (a `formdown` run starts in about half the time).
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;

// The fault suites (vitest.config.ts) run in CI and with --all; --faults runs them alone.
const argv = process.argv.slice(2);
const faultsOnly = argv.includes("--faults");
const all = faultsOnly || argv.includes("--all") || Boolean(process.env.CI);
const checks = argv.includes("--checks");
const passThrough = argv.filter((a) => a !== "--all" && a !== "--faults" && a !== "--checks");
const named = passThrough.some((a) => !a.startsWith("-"));
const projects = faultsOnly ? ["faults"] : all ? ["unit", "suites", "faults"] : ["unit", "suites"];

// The data suites run on PGlite always, and again on Postgres: the one TEST_DATABASE_URL names,
// or in CI (and with --all) a local server when one answers. The quick run leaves a local one
// alone unless named: it adds about a minute, and CI runs it on every change.
const LOCAL_PG = "postgres://postgres@127.0.0.1:5432/test";
let postgresNote = "";
if (!process.env.TEST_DATABASE_URL) {
  const local = await reachable("127.0.0.1", 5432);
  if (local && all) process.env.TEST_DATABASE_URL = LOCAL_PG;
  else if (local)
    postgresNote = `The Postgres runs of the data suites were not run: \`TEST_DATABASE_URL=${LOCAL_PG} npm test\` adds them (CI runs them).`;
  else
    postgresNote =
      "No PostgreSQL at 127.0.0.1:5432 and no TEST_DATABASE_URL: Postgres runs skipped.";
  if (postgresNote) {
    console.log(postgresNote);
    process.env.FORMDOWN_SAID_NO_PG = "1"; // said once here, not again by each worker
  }
}

rmSync(report, { force: true });
const vitest = "node_modules/vitest/vitest.mjs";
const args = [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${report}`,
  // files named on the command line run whichever project holds them
  ...(named ? [] : projects.map((p) => `--project=${p}`)),
  ...passThrough,
];

/** A child's exit status; with `quiet`, its output is kept and printed only when it failed. */
function run(command: string, argv: string[], quiet: boolean): Promise<number> {
  const child = spawn(command, argv, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
  const output: Buffer[] = [];
  child.stdout?.on("data", (b: Buffer) => output.push(b));
  child.stderr?.on("data", (b: Buffer) => output.push(b));
  return new Promise((resolve) => {
    child.once("close", (code) => {
      if (code !== 0 && quiet) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

// `npm test` (--checks): the typecheck and the lint run beside the suites, not before them. The
// suites wait on browsers and child processes about a third of their time, which the two checks
// fill (about 15 s less on two cores); a check that fails prints its output as it ends, and a
// line at the end says so.
// Astro's types for tsc are written first, under the build lock, after the pages build (which
// would write them again while tsc reads them); the suites' own builds wait for the lock.
// (each on this Node: a bare node_modules/.bin/x would run on the machine's, CONTRIBUTING.md)
const bin = (name: string) => join("node_modules", ".bin", name);
let checked = Promise.resolve([0, 0]);
if (checks) {
  await ensurePagesBuilt();
  let synced = 0;
  await withBuildLock(async () => {
    synced = await run(process.execPath, [bin("astro"), "sync"], true);
  });
  checked = Promise.all([
    synced || run(process.execPath, [bin("tsc"), "--noEmit", "-p", "tsconfig.json"], true),
    run(process.execPath, [bin("biome"), "check", "--error-on-warnings", "."], true),
  ]);
}
const status = await run(process.execPath, [vitest, ...args], false);
const [typecheck, lint] = await checked;
if (typecheck !== 0)
  console.log("The typecheck failed (see its errors above; `npm run typecheck` runs it alone).");
if (lint !== 0)
  console.log("The lint failed (see its findings above; `npm run lint` runs it alone).");

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  passed = json.numPassedTests;
  failed = json.numFailedTests;
}
if (status !== 0 && failed === 0) failed = 1;
// a failed typecheck or lint counts as one failure in the line CI reads
failed += (typecheck ? 1 : 0) + (lint ? 1 : 0);
if (postgresNote) console.log(postgresNote);
if (!all && !named)
  console.log(
    "The fault suites (kill -9, Postgres stopped and frozen, the mail provider down, graceful stops: " +
      "about two and a half minutes more) were not run: `npm run test:faults` runs them, and CI runs everything.",
  );
console.log(`${passed} passed, ${failed} failed`);
process.exit(status || typecheck || lint);
