// Deleting responses (SPEC §12): one by id on both variants, a time range in one statement,
// with their uploads, emails and undelivered webhooks; `response.deleted` for the webhooks that
// want it; never counted again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainWebhooks } from "../../functions/webhooks/drain.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

describe.each(DB_KINDS)("deleting responses (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let receiver: Receiver;
  let n = 0;

  beforeAll(async () => {
    // no background sender: the suite drains deliveries itself, to see what is queued
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  async function form() {
    const slug = `erase-${kind}-${n++}`;
    const res = await api("POST", "/api/forms", {
      body: {
        title: "Erase",
        slug,
        humanness: false,
        notifications: { email: ["owner@example.com"] },
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "cv", type: "file", label: "CV", accept: ["application/pdf"], max_mb: 1 },
        ],
      },
    });
    expect(res.status).toBe(201);
    return slug;
  }
  async function submit(slug: string, name: string, withFile = false) {
    const fields: Record<string, string> = { name };
    if (withFile) {
      const data = new FormData();
      data.set("field", "cv");
      data.set("file", new File([`%PDF ${name}`], "cv.pdf", { type: "application/pdf" }));
      const up = await fetch(`${s.url}/api/forms/${slug}/uploads`, { method: "POST", body: data });
      fields.cv = ((await up.json()) as { url: string }).url;
    }
    const res = await api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields } });
    expect(res.status).toBe(201);
    return { id: res.body.response_id as string, file: fields.cv };
  }
  const count = async (sql: string, params: unknown[]) =>
    (await s.ctx.db.query<{ n: number }>(sql, params))[0]!.n;

  it("deletes one response with its file, emails and undelivered webhook; tells response.deleted; 404 after, 403 for others", async () => {
    const slug = await form();
    const hook = await api("POST", `/api/forms/${slug}/webhooks`, { body: { url: receiver.url } });
    receiver.secret = hook.body.secret;
    const kept = await submit(slug, "Kept");
    const gone = await submit(slug, "Gone", true);
    expect(await (await fetch(gone.file!)).text()).toBe("%PDF Gone");
    expect(
      await count("select count(*)::int as n from outbox where response_id = $1", [gone.id]),
    ).toBe(1);
    const other = client(s.url, await s.otherKey());
    expect((await other("DELETE", `/api/forms/${slug}/responses/${gone.id}`)).status).toBe(403);

    const res = await api("DELETE", `/api/forms/${slug}/responses/${gone.id}`);
    expect(res.status).toBe(204);
    expect((await api("GET", `/api/forms/${slug}/responses/${gone.id}`)).status).toBe(404);
    expect((await api("DELETE", `/api/forms/${slug}/responses/${gone.id}`)).status).toBe(404);
    expect((await api("DELETE", `/api/forms/${slug}/submissions/${gone.id}`)).status).toBe(404);
    expect((await fetch(gone.file!)).status).toBe(404);
    expect(await count("select count(*)::int as n from uploads where url = $1", [gone.file])).toBe(
      0,
    );
    expect(
      await count("select count(*)::int as n from outbox where response_id = $1", [gone.id]),
    ).toBe(0);

    // the undelivered response.created of the erased response is never sent; the kept one is
    receiver.received.length = 0;
    await drainWebhooks(s.ctx);
    const events = receiver.received.map((r) => [r.json.type, r.json.data.response.id]);
    expect(events.sort()).toEqual(
      [
        ["response.created", kept.id],
        ["response.deleted", gone.id],
      ].sort(),
    );
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.find((r) => r.json.type === "response.deleted")!.json.data).toEqual({
      form: { form_id: expect.any(String), slug, title: "Erase" },
      response: { id: gone.id },
    });

    // never counted again: list, stats, report, exports
    const list = await api("GET", `/api/forms/${slug}/responses`);
    expect(list.body.total).toBe(1);
    expect((await api("GET", `/api/forms/${slug}/stats`)).body.responses).toBe(1);
    const report = await (
      await fetch(`${s.url}/api/forms/${slug}/report?period=all`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      })
    ).text();
    expect(report).toContain("Kept");
    expect(report).not.toContain("Gone");
    for (const format of ["csv", "json", "markdown"]) {
      const exported = await (
        await fetch(`${s.url}/api/forms/${slug}/responses/export?format=${format}`, {
          headers: { authorization: `Bearer ${s.apiKey}` },
        })
      ).text();
      expect(exported).toContain(kept.id);
      expect(exported).not.toContain(gone.id);
    }
  });

  it("deletes through the submissions variant too, and refuses a malformed id with 404", async () => {
    const slug = await form();
    const one = await submit(slug, "One");
    expect((await api("DELETE", `/api/forms/${slug}/submissions/not-a-uuid`)).status).toBe(404);
    expect((await api("DELETE", `/api/forms/${slug}/submissions/${one.id}`)).status).toBe(204);
    expect((await api("GET", `/api/forms/${slug}/submissions`)).body.total).toBe(0);
    expect((await api("DELETE", `/api/forms/no-such-form/responses/${one.id}`)).status).toBe(404);
  });

  it("deletes a time range in one statement and answers {deleted: N}; needs a bound", async () => {
    const slug = await form();
    const old = [await submit(slug, "a", true), await submit(slug, "b"), await submit(slug, "c")];
    await s.ctx.db.query(
      "update responses set submitted_at = '2020-01-01T00:00:00Z' where id = any($1::uuid[])",
      [old.map((o) => o.id)],
    );
    const fresh = await submit(slug, "fresh");
    const none = await api("DELETE", `/api/forms/${slug}/responses`);
    expect([none.status, none.body.code]).toEqual([400, "invalid_param"]);
    expect((await api("DELETE", `/api/forms/${slug}/responses?until=nope`)).status).toBe(400);
    const other = client(s.url, await s.otherKey());
    expect((await other("DELETE", `/api/forms/${slug}/responses?until=2021-01-01`)).status).toBe(
      403,
    );
    const statements: string[] = [];
    const query = s.ctx.db.query.bind(s.ctx.db);
    s.ctx.db.query = ((text: string, params?: unknown[], options?: object) => {
      if (/delete from responses/.test(text)) statements.push(text);
      return query(text, params, options);
    }) as typeof s.ctx.db.query;
    let res: Awaited<ReturnType<typeof api>>;
    try {
      res = await api("DELETE", `/api/forms/${slug}/responses?until=2021-01-01`);
    } finally {
      s.ctx.db.query = query;
    }
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 3 });
    expect(statements).toHaveLength(1);
    expect((await fetch(old[0]!.file!)).status).toBe(404);
    const left = await api("GET", `/api/forms/${slug}/submissions`);
    expect(left.body.submissions.map((r: { id: string }) => r.id)).toEqual([fresh.id]);
    expect((await api("DELETE", `/api/forms/${slug}/submissions?since=2021-01-01`)).body).toEqual({
      deleted: 1,
    });
    expect((await api("DELETE", `/api/forms/${slug}/responses?since=2021-01-01`)).body).toEqual({
      deleted: 0,
    });
    expect((await api("GET", `/api/forms/${slug}/stats`)).body.responses).toBe(0);
  });
});
