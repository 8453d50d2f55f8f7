import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "src/**/*.test.ts",
      "functions/**/*.test.ts",
      "cli/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // Two cores: more workers only contend (PGlite and chromium are CPU-bound).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
