// SPEC §23 "Numbers stay numbers in CSV": the formula guard applies to text cells only. A
// negative number is `-4` in every CSV export — the COPY writer on Postgres, the batched one on
// PGlite and behind a filter — while a text that starts like a formula is still neutralised.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("negative numbers in CSV exports (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Temps",
        slug: "temps",
        humanness: false,
        fields: [
          { id: "note", type: "text" },
          { id: "temp", type: "number" },
          { id: "feel", type: "scale", min: -5, max: 5 },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const fields of [
      { note: "-4", temp: -4, feel: -3 },
      { note: "=1+1", temp: -0.5, feel: 2 },
    ]) {
      const res = await api("POST", "/api/forms/temps/submit", { key: null, body: { fields } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const csv = async (query = "") => {
    const res = await fetch(`${s.url}/api/forms/temps/responses/export?format=csv${query}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    // the cells after id and submitted_at, oldest first
    return (await res.text())
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",").slice(2).join(","))
      .reverse();
  };

  it("writes a negative number as the number, and neutralises text", async () => {
    expect(await csv()).toEqual(["'-4,-4,-3", "'=1+1,-0.5,2"]);
  });

  it("writes the same behind a filter (the batched writer)", async () => {
    const where = encodeURIComponent(JSON.stringify([{ field: "temp", op: "lt", value: 0 }]));
    expect(await csv(`&where=${where}`)).toEqual(["'-4,-4,-3", "'=1+1,-0.5,2"]);
  });
});
