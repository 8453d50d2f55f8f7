// Eighth review (docs/security-review.md): each cell of a matrix draws its row's text (the name a
// screen reader reads) and its column's twice (that name, and the text a phone shows), and neither
// text had a length bound. A 46 KB form of 1,000 rows and two columns of 10,000 characters (any
// account's key) drew a 60 MB page that held the event loop 1.2 s and 290 MB on every anonymous
// view; a 256 KB one, half a gigabyte of HTML. A row's text is now at most 300 characters and a
// column's 100, in the form and in its translations, so the largest matrix page stays near 4 MB.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { MAX_MATRIX_COLUMN, MAX_MATRIX_ROW } from "../../src/core/form-bounds.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const matrix = (slug: string, rows: number, rowText: string, columns: string[]) => ({
  title: "Matrix",
  slug,
  humanness: false,
  fields: [
    {
      id: "m",
      type: "matrix",
      label: "Rate",
      rows: Array.from({ length: rows }, (_, i) => ({ id: `r${i}`, label: `${i} ${rowText}` })),
      columns,
    },
  ],
});

describe.each(DB_KINDS)("the text a matrix draws in every cell (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    await ensurePagesBuilt();
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  }, 180_000);
  afterAll(() => s?.close());

  it("refuses long column and row texts, in the form and in a translation", async () => {
    const wide = await api("POST", "/api/forms", {
      body: matrix("wide", 1000, "x", ["a".repeat(10_000), "b".repeat(10_000)]),
    });
    expect([wide.status, wide.body.code]).toEqual([400, "validation_failed"]);
    expect(wide.body.details[0].field).toMatch(/^fields\[0\]\.columns/);
    const tall = await api("POST", "/api/forms", {
      body: matrix("tall", 2, "x".repeat(MAX_MATRIX_ROW + 1), ["a", "b"]),
    });
    expect([tall.status, tall.body.code]).toEqual([400, "validation_failed"]);
    expect(tall.body.details[0].field).toMatch(/^fields\[0\]\.rows/);
    const translated = await api("POST", "/api/forms", {
      body: {
        ...matrix("translated", 1000, "x", ["a", "b"]),
        languages: ["de"],
        translations: {
          de: { fields: { m: { columns: { a: "A".repeat(10_000), b: "B" }, rows: { r0: "Z" } } } },
        },
      },
    });
    expect([translated.status, translated.body.code]).toEqual([400, "validation_failed"]);
  });

  it("draws the largest matrix a form may hold in a page of a few megabytes", async () => {
    const columns = Array.from({ length: 6 }, (_, i) => `${i}`.padEnd(MAX_MATRIX_COLUMN, "c"));
    const body = matrix("largest", 740, "r".repeat(MAX_MATRIX_ROW - 4), columns);
    const made = await api("POST", "/api/forms", { body });
    expect(made.status, JSON.stringify(made.body).slice(0, 500)).toBe(201);
    const page = await fetch(`${s.url}/@me/largest`, {
      headers: { "accept-encoding": "identity" },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(columns[5]);
    // about 16 times its definition; 60 MB came from a 46 KB form before
    expect(html.length).toBeLessThan(6_000_000);
  });
});
