// Ninth review, part B: a `where` on a variable (SPEC §24) took any text for a text variable, and
// a lone surrogate (`"\ud800"`, which JSON carries) reached the database: `eq`/`neq` answered 500
// on every read that filters (list, stats, report, exports), and `contains` on the CSV export of
// Postgres (its values travel as JSON). Bad input is a 400 naming it (SPEC §19).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a filter on a text variable (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Size",
        slug: "size",
        humanness: false,
        variables: [{ id: "size", value: "if(n > 1, 'big', 'small')" }],
        fields: [{ id: "n", type: "number" }],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sent = await api("POST", "/api/forms/size/submit", {
      key: null,
      body: { fields: { n: 2 } },
    });
    expect(sent.status).toBe(201);
  });
  afterAll(() => s?.close());

  const read = async (path: string, where: unknown) => {
    const sep = path.includes("?") ? "&" : "?";
    const res = await fetch(
      `${s.url}/api/forms/size/${path}${sep}where=${encodeURIComponent(JSON.stringify(where))}`,
      { headers: { authorization: `Bearer ${s.apiKey}` } },
    );
    return { status: res.status, text: await res.text() };
  };

  it.each(["eq", "neq", "contains"])("refuses a lone surrogate with %s as 400", async (op) => {
    for (const path of ["responses", "stats", "report", "responses/export?format=csv"]) {
      const res = await read(path, [{ field: "size", op, value: "a\ud800" }]);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(JSON.parse(res.text).code).toBe("invalid_request");
    }
  });

  it("still filters on the variable's text", async () => {
    const res = await read("responses/export?format=csv", [
      { field: "size", op: "eq", value: "big" },
    ]);
    expect(res.status).toBe(200);
    expect(res.text.trim().split("\n")).toHaveLength(2);
  });
});
