// Tenth review, part B (2026-11-28): a page draws at most 5,000 choices (MAX_CHOICES: options, and
// rows × columns of a matrix), but the points of scales, ratings and NPS questions were not
// counted. 500 scales of 101 points (a 20 KB form, any account's key) drew 50,500 inputs, a
// 5.3 MB page that held the event loop 0.7-0.8 s on each anonymous view (a loaded 2-core machine,
// about four times the largest matrix allowed there), and five views at once kept /api/health
// waiting 1.5 s. Their points now count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateForm } from "../../src/core/validate-form.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = (slug: string, fields: object[]) => ({
  title: "Points",
  slug,
  humanness: false,
  fields,
});
const many = (n: number, field: object) =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i}`, label: "Q", ...field }));
const scale = { type: "scale", min: 0, max: 100 };

describe("the points of scales count as choices", () => {
  const rating = { type: "rating", max: 10 };
  it.each([
    ["scales of 101 points", many(49, scale), many(50, scale)],
    ["ratings of 10 stars", many(500, rating), [...many(499, rating), { id: "s", ...scale }]],
    ["NPS questions", many(454, { type: "nps" }), many(455, { type: "nps" })],
  ])("refuses a form of %s past 5,000 in all", (_, fits, over) => {
    expect(validateForm(form("ok", fits)).ok).toBe(true);
    const refused = validateForm(form("over", over));
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toMatch(/choices.*at most 5000/);
  });

  it("counts a huge scale once, as its own bound refuses it", () => {
    const huge = validateForm(form("huge", [{ id: "s", ...scale, max: 200_000 }]));
    expect(JSON.stringify(huge)).toMatch(/at most 101/);
    expect(JSON.stringify(huge)).not.toMatch(/choices/);
  });
});

describe.each(DB_KINDS)("500 scales of 101 points (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
  });
  afterAll(() => s?.close());

  it("are refused with the reason", async () => {
    const res = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: form("scales", many(500, scale)),
    });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    expect(res.body.details[0]).toMatchObject({
      field: "fields[49].max",
      message: expect.stringMatching(/5050 choices.*at most 5000/),
    });
  });
});
