import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Funnel",
  slug: "funnel",
  humanness: false,
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "note", type: "statement", label: "Now about you" },
    { id: "age", type: "number", label: "Age" },
    { id: "city", type: "text", label: "City" },
  ],
};

describe.each(DB_KINDS)("drop-off and time to complete (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const progress = (field: unknown) =>
    api("POST", "/api/forms/funnel/events", { key: null, body: { type: "progress", field } });
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("refuses a progress beacon without a field of the form", async () => {
    for (const field of [undefined, "nope", 3, "note"]) {
      const res = await progress(field);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect(
      (await api("GET", "/api/forms/funnel/stats")).body.dropoff.map(
        (d: { reached: number }) => d.reached,
      ),
    ).toEqual([0, 0, 0]);
  });

  it("counts respondents who stop at different fields as a funnel, with the median time", async () => {
    // the page sends one beacon per question a respondent reaches: ten reached name, six of
    // them age, four of those city; four submitted (two of them through the API alone)
    const beacons = [...Array(10).fill("name"), ...Array(6).fill("age"), ...Array(4).fill("city")];
    for (const f of beacons) expect((await progress(f)).status).toBe(204);
    const submits = [
      { fields: { name: "A", age: 30, city: "X" }, seconds: 50 },
      { fields: { name: "B", age: 40 }, seconds: 70 },
      { fields: { name: "C" }, seconds: -5 },
      { fields: { name: "D" }, seconds: "soon" },
    ];
    for (const body of submits)
      expect((await api("POST", "/api/forms/funnel/submit", { key: null, body })).status).toBe(201);
    const stats = (await api("GET", "/api/forms/funnel/stats")).body;
    expect(stats.dropoff).toEqual([
      { field: "name", reached: 10, answered: 4 },
      { field: "age", reached: 6, answered: 2 },
      { field: "city", reached: 4, answered: 1 },
    ]);
    // implausible seconds are stored as null and left out of the median
    expect(stats.median_seconds).toBe(60);
    const stored = await s.ctx.db.query<{ seconds: number | null }>(
      "select seconds from responses order by seq",
    );
    expect(stored.map((r) => r.seconds)).toEqual([50, 70, null, null]);
    const res = await fetch(`${s.url}/api/forms/funnel/report?period=all`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    const md = await res.text();
    expect(md).toContain("| Name | 10 | 4 | 40% |");
    expect(md).toContain("| Age | 6 | 2 | 33% |");
    expect(md).toContain("Median time to complete: 1 min.");
  });
});
