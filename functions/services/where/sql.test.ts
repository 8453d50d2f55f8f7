// The compiled conditions run against real rows (PGlite, and Postgres with TEST_DATABASE_URL):
// what each op matches, with every value a parameter after the caller's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lineage } from "../../../src/core/plan/lineage.ts";
import { type Form, formSchema } from "../../../src/core/schema.ts";
import { checkWhere } from "../../../src/core/where/where.ts";
import { DB_KINDS, freshDb } from "../../../test/helpers/db.ts";
import type { Db } from "../../db/db.ts";
import { whereSql } from "./sql.ts";

const form = (fields: unknown[]): Form =>
  formSchema.parse({ title: "T", slug: "t", locale: "en", fields }) as Form;
const v1 = form([
  { id: "score", type: "nps", label: "S" },
  { id: "plan", type: "radio", label: "P", options: ["Free", "Team"] },
]);
const v2 = form([
  { id: "recommend", type: "nps", label: "R", formerly: ["score"] },
  {
    id: "plan",
    type: "radio",
    label: "P",
    options: ["Free", { label: "Pro", formerly: ["Team"] }],
  },
  { id: "why", type: "textarea", label: "W" },
  { id: "uses", type: "checkbox", label: "U", options: ["Billing", "Reports"] },
  { id: "when", type: "date", label: "D" },
  { id: "seats", type: "number", label: "N" },
]);
const lines = lineage(v2, [v1]);

const ROWS: [string, Record<string, unknown>, number | null, string | null][] = [
  ["a", { score: 3, plan: "Team", why: "The BILLING page" }, null, null],
  ["b", { recommend: 9, plan: "Pro", uses: ["Billing"], when: "2026-01-05", seats: 12 }, 2, "de"],
  ["c", { recommend: 6, plan: "Free", uses: ["Reports"], why: "fine", seats: "2" }, 2, "en"],
  ["d", { recommend: "6", why: ["odd"] }, 2, null],
  ["e", { score: [5], seats: [1] }, null, null],
];

describe.each(DB_KINDS)("whereSql on %s", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDb(kind));
    await db.query(
      "create table w (name text, payload jsonb, version int, lang text, submitted_at timestamptz default now())",
    );
    for (const [name, payload, version, lang] of ROWS)
      await db.query("insert into w values ($1, $2::jsonb, $3, $4)", [
        name,
        JSON.stringify(payload),
        version,
        lang,
      ]);
  });
  afterAll(() => drop());

  async function names(where: unknown[]): Promise<string> {
    const checked = checkWhere(v2, lines, where);
    if (!checked.ok) throw new Error(checked.failure.error);
    // $1 is the caller's: the filter's parameters follow it
    const sql = whereSql(checked.value, 2);
    const rows = await db.query<{ name: string }>(
      `select name from w where name <> $1 and ${sql.text} order by name`,
      ["zz", ...sql.params],
    );
    return rows.map((r) => r.name).join("");
  }

  it("compares numbers, under the field's earlier id too, and leaves text and lists out", async () => {
    expect(await names([{ field: "recommend", op: "lte", value: 6 }])).toBe("ac");
    expect(await names([{ field: "recommend", op: "gt", value: 6 }])).toBe("b");
    expect(await names([{ field: "recommend", op: "eq", value: 3 }])).toBe("a");
    expect(await names([{ field: "seats", op: "lte", value: 20 }])).toBe("b");
    expect(await names([{ field: "seats", op: "gt", value: 0 }])).toBe("b");
  });

  it("matches an option under its earlier label; neq keeps the unanswered", async () => {
    expect(await names([{ field: "plan", op: "eq", value: "Pro" }])).toBe("ab");
    expect(await names([{ field: "plan", op: "neq", value: "Pro" }])).toBe("cde");
  });

  it("finds text ignoring case, and list items", async () => {
    expect(await names([{ field: "why", op: "contains", value: "billing" }])).toBe("a");
    expect(await names([{ field: "uses", op: "includes", value: "Billing" }])).toBe("b");
    expect(await names([{ field: "uses", op: "excludes", value: "Billing" }])).toBe("acde");
  });

  it("tells answered from unanswered, and combines conditions", async () => {
    expect(await names([{ field: "why", op: "unanswered" }])).toBe("be");
    expect(
      await names([
        { field: "why", op: "answered" },
        { field: "recommend", op: "gte", value: 6 },
      ]),
    ).toBe("c");
    expect(await names([{ field: "when", op: "gte", value: "2026-01-01" }])).toBe("b");
  });

  it("filters on version (none recorded: the first) and lang (none: the form's own)", async () => {
    expect(await names([{ field: "version", op: "eq", value: 1 }])).toBe("ae");
    expect(await names([{ field: "lang", op: "eq", value: "en" }])).toBe("acde");
    expect(await names([{ field: "lang", op: "neq", value: "en" }])).toBe("b");
    expect(await names([{ field: "submitted_at", op: "lt", value: "2000-01-01" }])).toBe("");
  });

  it("is true and binds nothing without conditions", () => {
    expect(whereSql([], 4)).toEqual({ text: "true", params: [] });
  });
});
