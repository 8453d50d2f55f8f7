// Responses carry no foreign key to their form (migration 000400): the form's sequence guards them.
// These suites prove the guarantee a cascade gave — no response outlives its form — including a
// submit in flight while the form is deleted, and a stale cached form in another instance.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = (slug: string) => ({
  title: "Kept",
  slug,
  humanness: false,
  fields: [{ id: "x", type: "text" }],
});

describe.each(DB_KINDS)("responses live and die with their form (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const count = async (sql: string, params: unknown[]) =>
    Number((await s.ctx.db.query<{ n: number }>(sql, params))[0]!.n);
  const formId = async (slug: string) =>
    (await s.ctx.db.query<{ id: string }>("select id from forms where slug = $1", [slug]))[0]!.id;
  const sequences = (id: string) =>
    count("select count(*)::int as n from pg_class where relkind = 'S' and relname = $1", [
      formSequence(id),
    ]);

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  });
  afterAll(() => s?.close());

  it("gives a form its sequence as it is inserted, however it is inserted", async () => {
    expect((await api("POST", "/api/forms", { body: form("made-by-api") })).status).toBe(201);
    expect(await sequences(await formId("made-by-api"))).toBe(1);
    const [account] = await s.ctx.db.query<{ id: string }>(
      "select account_id as id from forms where slug = 'made-by-api'",
    );
    const [direct] = await s.ctx.db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, 'made-by-sql', 'SQL0001', 'Direct', 'form', '{}'::jsonb) returning id`,
      [account!.id],
    );
    expect(await sequences(direct!.id)).toBe(1);
  });

  it("deletes a form's responses and sequence with it, and nothing of other forms", async () => {
    for (const slug of ["doomed", "bystander"]) {
      expect((await api("POST", "/api/forms", { body: form(slug) })).status).toBe(201);
      for (let i = 0; i < 3; i++) {
        const res = await api("POST", `/api/forms/${slug}/submit`, {
          key: null,
          body: { fields: { x: `${slug} ${i}` } },
        });
        expect(res.status).toBe(201);
      }
    }
    const doomed = await formId("doomed");
    const bystander = await formId("bystander");
    expect((await api("DELETE", "/api/forms/doomed")).status).toBe(204);
    const left = "select count(*)::int as n from responses where form_id = $1";
    expect(await count(left, [doomed])).toBe(0);
    expect(await sequences(doomed)).toBe(0);
    expect(await count(left, [bystander])).toBe(3);
    expect(await sequences(bystander)).toBe(1);
  });

  it("refuses a response for a form deleted behind a cached copy (404, nothing stored)", async () => {
    expect((await api("POST", "/api/forms", { body: form("gone-elsewhere") })).status).toBe(201);
    const first = await api("POST", "/api/forms/gone-elsewhere/submit", {
      key: null,
      body: { fields: { x: "cached now" } },
    });
    expect(first.status).toBe(201);
    const id = await formId("gone-elsewhere");
    // another instance deletes it: this one's cache still holds the form
    await s.ctx.db.query("delete from forms where id = $1", [id]);
    const late = await api("POST", "/api/forms/gone-elsewhere/submit", {
      key: null,
      body: { fields: { x: "too late" } },
    });
    expect(late.status).toBe(404);
    expect(late.body.code).toBe("not_found");
    expect(await count("select count(*)::int as n from responses where form_id = $1", [id])).toBe(
      0,
    );
  });

  it("stores a response for the new form when the slug was deleted and taken again", async () => {
    expect((await api("POST", "/api/forms", { body: form("reborn") })).status).toBe(201);
    const cached = await api("POST", "/api/forms/reborn/submit", {
      key: null,
      body: { fields: { x: "to the first" } },
    });
    expect(cached.status).toBe(201);
    const [old] = await s.ctx.db.query<{ id: string; account_id: string; definition: unknown }>(
      "select id, account_id, definition from forms where slug = 'reborn'",
    );
    // another instance deletes the form and creates a new one under its slug
    await s.ctx.db.query("delete from forms where id = $1", [old!.id]);
    await s.ctx.db.query(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, 'reborn', 'REBORN1', 'Reborn', 'form', $2::jsonb)`,
      [old!.account_id, JSON.stringify(old!.definition)],
    );
    const res = await api("POST", "/api/forms/reborn/submit", {
      key: null,
      body: { fields: { x: "to the second" } },
    });
    expect(res.status).toBe(201);
    const fresh = await formId("reborn");
    const [stored] = await s.ctx.db.query<{ form_id: string; x: string }>(
      "select form_id, payload->>'x' as x from responses where id = $1",
      [res.body.response_id],
    );
    expect(stored).toEqual({ form_id: fresh, x: "to the second" });
  });
});

describe.each(DB_KINDS.filter((kind) => kind === "postgres"))(
  "deleting a form while a submit is in flight (%s)",
  (kind) => {
    let s: TestServer;
    let other: postgres.Sql;
    beforeAll(async () => {
      s = await startTestServer({ db: kind });
      // a second connection of its own, standing for a submit on another instance
      const [row] = await s.ctx.db.query<{ db: string }>("select current_database() as db");
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${row!.db}`;
      other = postgres(url.toString(), { max: 1, onnotice: () => {} });
    });
    afterAll(async () => {
      await other?.end();
      await s?.close();
    });

    it("waits for the submit to commit, then deletes its response too", async () => {
      const api = client(s.url, s.apiKey);
      expect((await api("POST", "/api/forms", { body: form("racing") })).status).toBe(201);
      const [racing] = await s.ctx.db.query<{ id: string }>(
        "select id from forms where slug = 'racing'",
      );
      const id = racing!.id;
      const sequence = formSequence(id);
      let deleted = false;
      let deletion: Promise<unknown> | null = null;
      await other.begin(async (tx) => {
        await tx.unsafe(
          "insert into responses (form_id, payload, seq) values ($1, '{}'::jsonb, nextval($2::regclass))",
          [id, sequence],
        );
        deletion = api("DELETE", "/api/forms/racing").then((res) => {
          deleted = true;
          return res.status;
        });
        await new Promise((r) => setTimeout(r, 300));
        // the deletion is waiting for this submit's lock on the sequence
        expect(deleted).toBe(false);
      });
      expect(await deletion).toBe(204);
      const [left] = await s.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from responses where form_id = $1",
        [id],
      );
      expect(left!.n).toBe(0);
      // a submit after the deletion has no sequence to number its response with
      await expect(
        other.unsafe(
          "insert into responses (form_id, payload, seq) values ($1, '{}'::jsonb, nextval($2::regclass))",
          [id, sequence],
        ),
      ).rejects.toThrow(/does not exist/);
    });
  },
);
