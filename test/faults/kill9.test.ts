// kill -9 of a real server process (`node functions/node/start.ts`) mid-load (issue 16 item
// 6): started again on the same data, it must have every response it acknowledged, in every
// list, export and count. PGlite restarts on the same data directory; Postgres runs on a
// throwaway cluster (test/faults/pg-cluster.ts). The long version: `node bench/faults.ts`.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgCluster, findPgBin, type PgCluster } from "./pg-cluster.ts";
import { missingFrom } from "./read-back.ts";
import { type KillNineResult, killNineUnderLoad } from "./scenarios.ts";

const kinds = findPgBin() ? (["pglite", "postgres"] as const) : (["pglite"] as const);

describe.each(kinds)("kill -9 mid-load (%s)", (kind) => {
  let cluster: PgCluster | null = null;
  let r: KillNineResult;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === "postgres") {
      cluster = await createPgCluster();
      const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
      await admin.unsafe("create database kill9");
      await admin.end();
      databaseUrl = cluster.url.replace(/\/postgres$/, "/kill9");
    }
    r = await killNineUnderLoad({
      concurrency: 16,
      loadMs: 2500,
      ...(databaseUrl ? { databaseUrl } : {}),
    });
  }, 180_000);
  afterAll(() => cluster?.destroy());

  it("was killed with submits in flight, after acknowledging some", () => {
    expect(r.before.byStatus[201]).toBeGreaterThan(50);
    // the requests the kill cut off
    expect(r.before.byStatus[0]).toBeGreaterThan(0);
  });

  it("starts again on the same data and takes submits", () => {
    expect(r.after.byStatus).toEqual({ 201: 40 });
  });

  it("has every acknowledged response in the lists, the CSV export and the counts", () => {
    const acked = [...r.before.acknowledged, ...r.after.acknowledged];
    expect(missingFrom(acked, r.readBack.responses)).toEqual([]);
    expect(missingFrom(acked, r.readBack.submissions)).toEqual([]);
    expect(missingFrom(acked, r.readBack.csv)).toEqual([]);
    // a submit cut off by the kill may have committed without its answer: at most one per client
    const stored = r.readBack.listTotal;
    expect(stored).toBeGreaterThanOrEqual(acked.length);
    expect(stored).toBeLessThanOrEqual(acked.length + 16);
    expect(r.readBack.responses.size).toBe(stored);
    expect(r.readBack.csv.size).toBe(stored);
    expect(r.readBack.stats).toBe(stored);
    if (r.sqlCount !== null) expect(r.sqlCount).toBe(stored);
  });

  // the keyset exports keep the cursor's microsecond, so rows sharing a millisecond are all there
  it("has every acknowledged response in the JSON and Markdown exports", () => {
    const acked = [...r.before.acknowledged, ...r.after.acknowledged];
    expect(missingFrom(acked, r.readBack.json)).toEqual([]);
    expect(missingFrom(acked, r.readBack.markdown)).toEqual([]);
    expect(r.readBack.json.size).toBe(r.readBack.listTotal);
    expect(r.readBack.markdown.size).toBe(r.readBack.listTotal);
  });
});
