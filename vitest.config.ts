import { defineConfig } from "vitest/config";

/**
 * Suites that inject a fault into real processes (kill -9, Postgres stopped or frozen, the mail
 * provider down, a SIGTERM mid-request) or run other suites inside a copy of the checkout. Each
 * takes tens of seconds by design; `npm test` runs them in CI (CI set), `npm run test:all`
 * always, and `npm run test:faults` runs them alone (test/run-suites.ts).
 */
export const FAULT_SUITES = [
  "test/faults/**/*.test.ts",
  "test/webhooks/crash.test.ts",
  "test/gitops/user-forms.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // Two cores: more workers only contend (PGlite and chromium are CPU-bound).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          // pure functions and single modules (a few against a database): one process for all, no server
          name: "unit",
          include: ["src/**/*.test.ts", "cli/**/*.test.ts", "functions/**/*.test.ts"],
          isolate: false,
        },
      },
      {
        test: {
          // a real server (shared by the tests of a file), a real database, a real browser
          name: "suites",
          include: ["test/**/*.test.ts"],
          exclude: FAULT_SUITES,
          // one worker process runs many files: each file starts its own servers and databases,
          // but the modules (the server, Astro's pages, the MCP SDK, PGlite's compiled WebAssembly)
          // are loaded once per worker instead of once per file
          isolate: false,
        },
      },
      {
        test: { name: "faults", include: FAULT_SUITES },
      },
    ],
  },
});
