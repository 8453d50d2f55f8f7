// Runs every vitest suite and prints the plain `N passed, N failed` line CI reads.
// Also decides whether the Postgres runs happen: TEST_DATABASE_URL, else a local server if reachable.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";

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

if (!process.env.TEST_DATABASE_URL) {
  if (await reachable("127.0.0.1", 5432)) {
    process.env.TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";
  } else {
    console.log("No PostgreSQL at 127.0.0.1:5432 and no TEST_DATABASE_URL: Postgres runs skipped.");
  }
}

rmSync(report, { force: true });
const args = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${report}`];
const vitest = "node_modules/vitest/vitest.mjs";
const run = spawnSync(process.execPath, [vitest, ...args.slice(1), ...process.argv.slice(2)], {
  stdio: "inherit",
});

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
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
