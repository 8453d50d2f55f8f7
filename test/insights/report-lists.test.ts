// A checkbox's and a ranking's items are counted from the distinct lists respondents gave
// (functions/reports/report-lists.ts), exactly as unnesting every list counts them: each item as
// often as it appears, its positions summed, an answer that is not a list left out. Where the
// lists cannot stand for the items (an item that is not text, too many distinct lists) the items
// are counted in SQL, and the report says the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISTINCT_LISTS, itemsOfLists } from "../../functions/reports/report-lists.ts";
import { reportTallies } from "../../functions/reports/report-tallies.ts";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Lists",
  slug: "lists",
  humanness: false,
  fields: [
    { id: "tags", type: "checkbox", label: "Tags", options: ["a", "b", "c"] },
    { id: "order", type: "ranking", label: "Order", options: ["x", "y", "z"] },
  ],
};
const { fields } = formSchema.parse(form);

describe("itemsOfLists", () => {
  it("adds up each list's items and their 1-based positions, as often as the list was given", () => {
    const rows = itemsOfLists({ id: "order" }, [
      { list: ["x", "y"], n: 3 },
      { list: ["y", "x", "y"], n: 2 },
      { list: "x", n: 5 },
      { list: null, n: 7 },
    ]);
    expect(rows).toEqual([
      { field: "order", kind: "v", sub: null, item: "x", n: 5, pos: 3 + 4 },
      { field: "order", kind: "v", sub: null, item: "y", n: 7, pos: 6 + 2 + 6 },
    ]);
  });

  it("gives up on an item that is not text and on too many lists", () => {
    expect(itemsOfLists({ id: "t" }, [{ list: ["a", 1], n: 1 }])).toBeNull();
    const many = Array.from({ length: DISTINCT_LISTS + 1 }, (_, i) => ({ list: [`v${i}`], n: 1 }));
    expect(itemsOfLists({ id: "t" }, many)).toBeNull();
    expect(itemsOfLists({ id: "t" }, many.slice(1))).toHaveLength(DISTINCT_LISTS);
  });
});

describe.each(DB_KINDS)("tallies of list fields (%s)", (kind) => {
  let s: TestServer;
  let formId: string;
  const store = (payloads: unknown[]) =>
    Promise.all(
      payloads.map((payload) =>
        s.ctx.db.query(
          "insert into responses (form_id, payload, seq) values ($1, $2::jsonb, nextval($3::regclass))",
          [formId, JSON.stringify(payload), formSequence(formId)],
        ),
      ),
    );
  const tally = async () => {
    const t = await reportTallies(s.ctx, formId, fields, null, false);
    const of = (id: string) => ({
      counts: Object.fromEntries(t.tallies.get(id)!.counts),
      ranks: Object.fromEntries(t.tallies.get(id)!.ranks),
    });
    return { tags: of("tags").counts, order: of("order") };
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const answers of [
      { tags: ["a", "c"], order: ["x", "y", "z"] },
      { tags: ["c"], order: ["z", "x", "y"] },
      { tags: ["a", "c"], order: ["x", "y", "z"] },
    ])
      expect(
        (await api("POST", "/api/forms/lists/submit", { key: null, body: { fields: answers } }))
          .status,
      ).toBe(201);
    [{ id: formId }] = (await s.ctx.db.query<{ id: string }>(
      "select id from forms where slug = 'lists'",
    )) as [{ id: string }];
    // stored around the API: a text, an object and a JSON null where a list belongs, an item
    // given twice, an item no option names
    await store([
      { tags: "a", order: { x: 1 } },
      { tags: ["b", "b"], order: null },
      { tags: ["zzz"], order: ["y"] },
    ]);
  });
  afterAll(() => s?.close());

  it("counts every item of every list, and nothing that is not a list", async () => {
    expect(await tally()).toEqual({
      tags: { a: 2, b: 2, c: 3, zzz: 1 },
      order: {
        counts: { x: 3, y: 4, z: 3 },
        ranks: { x: 1 + 2 + 1, y: 2 + 3 + 2 + 1, z: 3 + 1 + 3 },
      },
    });
  });

  it("counts in SQL what the lists cannot stand for, and says the same", async () => {
    // a number among the items: SQL's text of it
    await store([{ tags: ["a", 7] }]);
    expect((await tally()).tags).toEqual({ a: 3, b: 2, c: 3, zzz: 1, 7: 1 });
    // more distinct lists than are read back
    await s.ctx.db.query(
      `insert into responses (form_id, payload, seq)
       select $1, jsonb_build_object('order', jsonb_build_array('x', 'v' || g)), nextval($2::regclass)
         from generate_series(1, ${DISTINCT_LISTS + 1}) g`,
      [formId, formSequence(formId)],
    );
    const { order } = await tally();
    expect(order.counts.x).toBe(3 + DISTINCT_LISTS + 1);
    expect(order.ranks.x).toBe(4 + DISTINCT_LISTS + 1);
    expect(order.counts.v1).toBe(1);
    expect(order.ranks[`v${DISTINCT_LISTS + 1}`]).toBe(2);
    expect(Object.keys(order.counts)).toHaveLength(3 + DISTINCT_LISTS + 1);
  });
});
