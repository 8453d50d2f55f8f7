// Every read path returns every row, also when thousands of rows share one timestamp (one batched
// INSERT gives all its rows its transaction's time, to the microsecond): CSV, JSON and Markdown
// exports, both list variants paged to the end, and the MCP tools, each against the database's
// own select.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("complete reads of rows that share a timestamp (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let expected: string[];

  /** One INSERT of `n` rows: one statement, one transaction, one submitted_at for all. */
  async function batch(formId: string, n: number) {
    await s.ctx.db.query(
      `insert into responses (form_id, payload, seq)
       select $1, jsonb_build_object('a', 'row ' || g), nextval($2::regclass)
         from generate_series(1, $3::int) g`,
      [formId, formSequence(formId), n],
    );
  }

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "Many", slug: "many", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
    const [form] = await s.ctx.db.query<{ id: string }>("select id from forms where slug = 'many'");
    await batch(form!.id, 2500);
    for (let i = 0; i < 20; i++) {
      const res = await api("POST", "/api/forms/many/submit", {
        key: null,
        body: { fields: { a: `single ${i}` } },
      });
      expect(res.status).toBe(201);
    }
    await batch(form!.id, 1200);
    const rows = await s.ctx.db.query<{ id: string }>(
      "select id from responses where form_id = $1",
      [form!.id],
    );
    const [count] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from responses where form_id = $1",
      [form!.id],
    );
    expect(count!.n).toBe(3720);
    // the batch rows really share one timestamp (on Postgres, with microseconds a Date drops)
    const [tie] = await s.ctx.db.query<{ n: number }>(
      `select count(*)::int as n
         from responses where form_id = $1 group by submitted_at order by 1 desc limit 1`,
      [form!.id],
    );
    expect(tie!.n).toBe(2500);
    expected = rows.map((r) => r.id).sort();
  }, 120_000);
  afterAll(() => s?.close());

  /** The export's body as text (fetched directly: the helper checks JSON answers only). */
  const exported = async (variant: string, format: string) => {
    const res = await fetch(`${s.url}/api/forms/many/${variant}/export?format=${format}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  };
  const same = (ids: string[]) => {
    expect(ids.length).toBe(expected.length);
    expect([...ids].sort()).toEqual(expected);
  };

  it("exports every row as CSV, JSON and Markdown", async () => {
    for (const variant of ["responses", "submissions"]) {
      const csv = parse(await exported(variant, "csv"), { columns: true }) as { id: string }[];
      same(csv.map((r) => r.id));
      const json = JSON.parse(await exported(variant, "json")) as { id: string }[];
      same(json.map((r) => r.id));
    }
    const md = await exported("responses", "markdown");
    const lines = md.split("\n").filter((l) => l.startsWith("| "));
    same(lines.slice(2).map((l) => l.split(" | ")[0]!.slice(2)));
  });

  it("pages both list variants to the end with every row once", async () => {
    const a: string[] = [];
    for (let page = 1; ; page++) {
      const res = await api("GET", `/api/forms/many/responses?page=${page}&limit=200`);
      expect(res.body.total).toBe(expected.length);
      a.push(...res.body.responses.map((r: { id: string }) => r.id));
      if (res.body.responses.length < 200) break;
    }
    same(a);
    const b: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const res = await api("GET", `/api/forms/many/submissions?limit=100&offset=${offset}`);
      b.push(...res.body.submissions.map((r: { id: string }) => r.id));
      if (res.body.submissions.length < 100) break;
    }
    same(b);
  });

  it("gives an agent every row through list_responses and export_responses", async () => {
    const mcp = new Client(
      { name: "pager", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        ((await mcp.callTool({ name, arguments: args })) as { structuredContent: any })
          .structuredContent;
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const res = await call("list_responses", { slug: "many", page, limit: 200 });
        ids.push(...res.responses.map((r: { id: string }) => r.id));
        if (res.responses.length < 200) break;
      }
      same(ids);
      const out = await call("export_responses", { slug: "many", format: "json" });
      same((JSON.parse(out.content) as { id: string }[]).map((r) => r.id));
    } finally {
      await mcp.close();
    }
  });
});
