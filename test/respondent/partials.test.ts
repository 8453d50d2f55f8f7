// Partial responses (SPEC §25): answers saved page by page under a resume token, resumed, then
// completed as one response with the partial's id; out of counts and lists unless asked for;
// erasable; gone after partial_days.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainDue } from "../../functions/drain-due.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Long survey",
  slug: "long",
  humanness: false,
  settings: { partial: true, partial_days: 10 },
  fields: [
    { id: "name", type: "text", label: "Name", step: 1 },
    { id: "team", type: "text", label: "Team", step: 2 },
    { id: "ok", type: "yes_no", label: "OK?", step: 3 },
  ],
};

describe.each(DB_KINDS)("partial responses (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const save = (body: object, slug = "long") =>
    api("POST", `/api/forms/${slug}/partial`, { key: null, body });
  const list = async (status?: string) =>
    (await api("GET", `/api/forms/long/responses${status ? `?status=${status}` : ""}`)).body;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: definition })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("saves page by page, resumes elsewhere by the token, and completes as one response with its id", async () => {
    const first = await save({ fields: { name: "Ada", stray: "x" }, page: 1 });
    expect(first.status).toBe(200);
    const { resume, id } = first.body;
    // another device: the same token continues the same partial
    const second = await save({ fields: { name: "Ada", team: "Core" }, page: 2, resume });
    expect(second.body).toEqual({ resume, id });
    const loaded = await api("GET", `/api/forms/long/partial/${resume}`, { key: null });
    expect(loaded.body).toEqual({ fields: { name: "Ada", team: "Core" }, page: 2 });
    // out of lists and counts unless asked for
    expect((await list()).total).toBe(0);
    expect((await api("GET", "/api/forms/long/stats")).body.responses).toBe(0);
    const partials = await list("partial");
    expect(partials.total).toBe(1);
    const printed = await runFormdown(["responses", "long", "--status", "partial"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
    });
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual([
      expect.objectContaining({ id, status: "partial" }),
    ]);
    expect(partials.responses[0]).toMatchObject({
      id,
      status: "partial",
      payload: { team: "Core" },
    });
    const done = await api("POST", "/api/forms/long/submit", {
      key: null,
      body: { fields: { name: "Ada", team: "Core", ok: "yes" }, resume },
    });
    expect(done.status).toBe(201);
    expect(done.body.response_id).toBe(id);
    expect((await list()).total).toBe(1);
    expect((await list("partial")).total).toBe(0);
    expect((await list("all")).responses.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await api("GET", `/api/forms/long/partial/${resume}`, { key: null })).status).toBe(404);
    // the token again: refused, nothing stored twice
    const again = await api("POST", "/api/forms/long/submit", {
      key: null,
      body: { fields: { name: "Ada", ok: "no" }, resume },
    });
    expect(again.status).toBe(201);
    expect(again.body.response_id).not.toBe(id);
  });

  it("stays out of exports, emails and webhooks until it is completed", async () => {
    const hooked = {
      ...definition,
      slug: "hooked",
      notifications: { email: ["owner@example.com"] },
    };
    expect((await api("POST", "/api/forms", { body: hooked })).status).toBe(201);
    const hook = await api("POST", "/api/forms/hooked/webhooks", {
      body: { url: `${s.url}/nowhere` },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const exported = async () =>
      (await fetch(`${s.url}/api/forms/hooked/responses/export?format=json`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      }).then((r) => r.json())) as unknown[];
    const counts = async () => {
      const [row] = await s.ctx.db.query<{ emails: number; deliveries: number }>(
        `select (select count(*) from outbox o join forms f on f.id = o.form_id where f.slug = 'hooked')::int as emails,
                (select count(*) from webhook_deliveries d join webhooks w on w.id = d.webhook_id
                   join forms f on f.id = w.form_id where f.slug = 'hooked')::int as deliveries`,
      );
      return row;
    };
    const { resume, id } = (
      await save({ fields: { name: "Ada", team: "Core" }, page: 2 }, "hooked")
    ).body;
    await save({ fields: { name: "Ada", team: "Core", ok: "no" }, page: 3, resume }, "hooked");
    expect(await exported()).toEqual([]);
    expect(await counts()).toEqual({ emails: 0, deliveries: 0 });
    expect((await api("GET", "/api/forms/hooked/stats")).body.responses).toBe(0);
    const done = await api("POST", "/api/forms/hooked/submit", {
      key: null,
      body: { fields: { name: "Ada", team: "Core", ok: "yes" }, resume },
    });
    expect(done.body.response_id).toBe(id);
    expect(await exported()).toEqual([expect.objectContaining({ id })]);
    expect(await counts()).toEqual({ emails: 1, deliveries: 1 });
  });

  it("is erasable like a response, refused on a form without it, and gone after partial_days", async () => {
    const kept = (await save({ fields: { name: "Kept" } })).body;
    const erased = (await save({ fields: { name: "Erased" } })).body;
    const stale = (await save({ fields: { name: "Stale" } })).body;
    expect((await api("DELETE", `/api/forms/long/responses/${erased.id}`)).status).toBe(204);
    await s.ctx.db.query(
      "update partials set updated_at = now() - interval '11 days' where id = $1",
      [stale.id],
    );
    await s.ctx.db.query("delete from upkeep_runs");
    await drainDue(s.ctx, 5_000);
    const left = (await list("partial")).responses.map((r: { id: string }) => r.id);
    expect(left).toEqual([kept.id]);
    await api("POST", "/api/forms", {
      body: { ...definition, slug: "short", settings: {} },
    });
    const refused = await save({ fields: { name: "x" } }, "short");
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("not_found");
    const bad = await save({ fields: "nope" });
    expect([bad.status, bad.body.code]).toEqual([400, "validation_failed"]);
  });
});
