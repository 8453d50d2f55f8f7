// PGlite has no autovacuum (functions/db/embedded-upkeep.ts): the server's minute sweep
// analyzes and vacuums the tables that grew. Without it the planner took an export's keyset
// batch over a hundred thousand responses for a scan of an empty table, and sorted them all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import { embeddedUpkeep } from "../../functions/db/embedded-upkeep.ts";
import { freshDb } from "../helpers/db.ts";

const FORM = "00000000-0000-4000-8000-000000000001";
/** The export's keyset batch (functions/exports/records.ts), past its first page. */
const BATCH = `explain select id, payload from responses
  where form_id = $1 and not test and (submitted_at, id) < ($2::timestamptz, $1::uuid)
  order by submitted_at desc, id desc limit 1000`;

describe("the embedded database's upkeep", () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDb("pglite"));
  });
  afterAll(() => drop?.());

  const plan = async () =>
    (await db.query<{ "QUERY PLAN": string }>(BATCH, [FORM, new Date().toISOString()]))
      .map((r) => r["QUERY PLAN"])
      .join("\n");
  const analyzed = async (table: string) =>
    (
      await db.query<{ tuples: number }>(
        "select reltuples as tuples from pg_class where relname = $1",
        [table],
      )
    )[0]!.tuples;

  it("analyzes and vacuums the tables that grew, so reads take their index, and then rests", async () => {
    await db.query(
      `insert into responses (form_id, seq, payload, submitted_at)
       select $1, g, jsonb_build_object('n', g), now() - make_interval(secs => g)
         from generate_series(1, 20000) g`,
      [FORM],
    );
    await db.query("delete from responses where seq % 10 = 0");
    // never analyzed: the planner guesses, and sorts what a bitmap scan found
    expect(await plan()).toMatch(/Sort/);
    expect(await analyzed("responses")).toBeLessThan(0);

    const done = await embeddedUpkeep(db);
    expect(done).toContain("responses");
    expect(await analyzed("responses")).toBe(18000);
    expect(await plan()).toMatch(/Index Scan using responses_form_time/);
    expect(await plan()).not.toMatch(/Sort/);
    // vacuumed, not only analyzed: VACUUM writes its own counters at once. (Not n_dead_tup: the
    // DELETE's count of dead rows waits in the session until its stats are flushed, which once
    // came after the VACUUM had zeroed it, and put the 2,000 back.)
    const [vacuum] = await db.query<{ n: number }>(
      "select vacuum_count::int as n from pg_stat_user_tables where relname = 'responses'",
    );
    expect(vacuum!.n).toBe(1);

    // nothing grew since: nothing to do
    expect(await embeddedUpkeep(db)).toEqual([]);
    // a third more rows (the first 2,000 of them fill the space the deleted ones left) is growth
    await db.query(
      `insert into responses (form_id, seq, payload)
       select $1, g, jsonb_build_object('n', g) from generate_series(20001, 26000) g`,
      [FORM],
    );
    expect(await embeddedUpkeep(db)).toEqual(["responses"]);
    expect(await analyzed("responses")).toBe(24000);
  });
});
