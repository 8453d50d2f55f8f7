// A filtered export (SPEC §18) on Postgres goes through COPY like an unfiltered one (issue 28):
// COPY takes no bind parameters, so the filter's values travel in a setting the statement reads
// (functions/db/db.ts, `copyOut`). Every op, with values that would break a statement written as
// text (quotes, `$1`, backslashes, a formula), exports exactly what the REST list finds, and on
// Postgres what the batched path writes for the same filter.
import { get } from "node:http";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Filters",
  slug: "filters",
  humanness: false,
  fields: [
    { id: "score", type: "nps", label: "Recommend us?" },
    { id: "tags", type: "checkbox", label: "Tags", options: ["a", "b", "c's"] },
    { id: "note", type: "text", label: "Note" },
    { id: "plan", type: "radio", label: "Plan", options: ["Free", "Pro"] },
    { id: "day", type: "date", label: "Day" },
  ],
};
const ANSWERS: Record<string, unknown>[] = [
  { score: 2, tags: ["a"], note: "o'brien says $1", plan: "Pro", day: "2025-12-31" },
  { score: 9, tags: ["c's", "b"], note: "back\\slash", plan: "Free", day: "2026-01-02" },
  { score: 6, tags: ["b"], note: "=1+1 '; drop table responses; --" },
  { score: 10, note: "ünïcode O'BRIEN" },
  { score: 7, tags: ["a", "c's"], plan: "Pro", day: "2026-03-01" },
  { score: 0 },
  // Markdown syntax a cell is escaped for (a lone pipe, list markers, a heading, emphasis)
  { note: "a | b" },
  { note: "- dash item", score: 3 },
  { note: "12) twelve" },
  { note: "snake_case and `code`" },
  { note: "  # heading", tags: ["b"] },
];
const FILTERS: unknown[][] = [
  [{ field: "score", op: "lte", value: 6 }],
  [{ field: "score", op: "gt", value: 8 }],
  [{ field: "score", op: "eq", value: 7 }],
  [{ field: "score", op: "neq", value: 7 }],
  [{ field: "tags", op: "includes", value: "c's" }],
  [{ field: "tags", op: "excludes", value: "a" }],
  [{ field: "note", op: "contains", value: "o'b" }],
  [{ field: "note", op: "contains", value: "$1" }],
  [{ field: "note", op: "contains", value: "\\" }],
  [{ field: "note", op: "unanswered" }],
  [{ field: "plan", op: "eq", value: "Pro" }],
  [{ field: "plan", op: "neq", value: "Free" }],
  [{ field: "day", op: "gte", value: "2026-01-01" }],
  [
    { field: "version", op: "eq", value: 1 },
    { field: "score", op: "lte", value: 6 },
  ],
  [
    { field: "lang", op: "eq", value: "en" },
    { field: "note", op: "answered" },
  ],
  [
    { field: "submitted_at", op: "gte", value: "2000-01-01T00:00:00Z" },
    { field: "plan", op: "eq", value: "Pro" },
  ],
  [
    { field: "score", op: "gte", value: 2 },
    { field: "tags", op: "answered" },
    { field: "plan", op: "neq", value: "Free" },
  ],
];

describe.each(DB_KINDS)("filtered exports (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let copies = 0;
  let copyOut: Db["copyOut"];
  const exported = async (format: string, where: unknown[]) => {
    const q = encodeURIComponent(JSON.stringify(where));
    const res = await fetch(
      `${s.url}/api/forms/filters/responses/export?format=${format}&where=${q}`,
      {
        headers: { authorization: `Bearer ${s.apiKey}` },
      },
    );
    expect(res.status).toBe(200);
    return res.text();
  };
  /** The same export through the batched path: the database without COPY. */
  const batched = async (format: string, where: unknown[]) => {
    s.ctx.db.copyOut = undefined;
    try {
      return await exported(format, where);
    } finally {
      s.ctx.db.copyOut = copyOut;
    }
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const fields of ANSWERS) {
      const res = await api("POST", "/api/forms/filters/submit", { key: null, body: { fields } });
      expect(res.status).toBe(201);
    }
    const own = s.ctx.db.copyOut?.bind(s.ctx.db);
    copyOut =
      own &&
      ((statement, params) => {
        copies++;
        return own(statement, params);
      });
    s.ctx.db.copyOut = copyOut;
  });
  afterAll(() => s?.close());

  it.each(FILTERS.map((where) => [JSON.stringify(where), where] as const))(
    "%s: every format holds exactly the rows the list finds",
    async (_, where) => {
      const list = await api(
        "GET",
        `/api/forms/filters/responses?limit=100&where=${encodeURIComponent(JSON.stringify(where))}`,
      );
      expect(list.status).toBe(200);
      const ids = (list.body.responses as { id: string }[]).map((r) => r.id).sort();
      // each filter keeps some rows and leaves others out
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThan(ANSWERS.length);
      const before = copies;
      const csv = await exported("csv", where);
      const rows = parse(csv, { columns: true }) as { id: string }[];
      expect(rows.map((r) => r.id).sort()).toEqual(ids);
      const json = JSON.parse(await exported("json", where)) as { id: string }[];
      expect(json.map((r) => r.id).sort()).toEqual(ids);
      const markdown = await exported("markdown", where);
      expect(markdown.trim().split("\n").length).toBe(ids.length + 2);
      if (kind === "postgres") {
        // the three went through COPY, and wrote what the batched path writes
        expect(copies - before).toBe(3);
        // byte for byte; JSON's payload keeps jsonb's spacing, so it is compared as values
        expect(csv).toBe(await batched("csv", where));
        expect(markdown).toBe(await batched("markdown", where));
        expect(JSON.parse(await batched("json", where))).toEqual(json);
      }
    },
  );
});

describe.each(DB_KINDS)("an export its client leaves mid-download (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    const [row] = await s.ctx.db.query<{ id: string }>(
      "select id from forms where slug = 'filters'",
    );
    await s.ctx.db.query(
      `insert into responses (form_id, seq, payload)
       select $1, g, jsonb_build_object('score', g % 11, 'note', repeat('n', 500))
         from generate_series(1, 20000) g`,
      [row!.id],
    );
  });
  afterAll(() => s?.close());

  /** Reads the export's first bytes, then hangs up. */
  const leave = (path: string) =>
    new Promise<number>((resolve, reject) => {
      get(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.apiKey}` } }, (res) => {
        res.once("data", (chunk: Buffer) => {
          res.destroy();
          resolve(chunk.byteLength);
        });
      }).on("error", reject);
    });

  it("frees what the export held: more exports left than there are connections, then one read whole", async () => {
    const where = encodeURIComponent(JSON.stringify([{ field: "score", op: "lte", value: 6 }]));
    for (let i = 0; i < 6; i++)
      expect(
        await leave(
          `/api/forms/filters/responses/export?format=${["csv", "json", "markdown"][i % 3]}${i % 2 ? `&where=${where}` : ""}`,
        ),
      ).toBeGreaterThan(0);
    const res = await fetch(`${s.url}/api/forms/filters/responses/export?where=${where}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    const rows = parse(await res.text(), { columns: true }) as { score: string }[];
    // 0…6 of every eleven
    expect(rows.length).toBe(12728);
    expect(rows.every((r) => Number(r.score) <= 6)).toBe(true);
  });
});
