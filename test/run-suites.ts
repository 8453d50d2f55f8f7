// Runs every vitest suite and prints the plain `N passed, N failed` line CI reads.
// Also decides which projects run (vitest.config.ts) and whether the Postgres runs happen.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
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
const passThrough = argv.filter((a) => a !== "--all" && a !== "--faults");
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
const run = spawnSync(process.execPath, [vitest, ...args], { stdio: "inherit" });

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
if (run.status !== 0 && failed === 0) failed = 1;
if (postgresNote) console.log(postgresNote);
if (!all && !named)
  console.log(
    "The fault suites (kill -9, Postgres stopped and frozen, the mail provider down, graceful stops: " +
      "about two and a half minutes more) were not run: `npm run test:faults` runs them, and CI runs everything.",
  );
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
