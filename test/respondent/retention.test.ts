// Retention as code (SPEC §25): `settings.retention_days` in the form, shown and guarded by the
// plan with the count its next run deletes; the drain deletes exactly the responses (and their
// uploaded files) older than that, once a day, once when two drains run at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainDue } from "../../functions/drain-due.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Feedback",
  slug: "feedback",
  humanness: false,
  fields: [
    { id: "note", type: "text", label: "Note" },
    { id: "cv", type: "file", label: "CV", accept: ["application/pdf"], max_mb: 1 },
  ],
};

describe.each(DB_KINDS)("retention as code (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const files: Record<string, string> = {};

  const answer = async (slug: string, note: string) => {
    const form = new FormData();
    form.set("field", "cv");
    form.set("file", new File([`%PDF-1.4 ${note}`], "cv.pdf", { type: "application/pdf" }));
    const up = await fetch(`${s.url}/api/forms/${slug}/uploads`, { method: "POST", body: form });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    const r = await api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields: { note, cv: url } },
    });
    expect(r.status).toBe(201);
    files[note] = url;
    return r.body.response_id as string;
  };
  const age = (id: string, days: number) =>
    s.ctx.db.query(
      "update responses set submitted_at = now() - make_interval(days => $2) where id = $1",
      [id, days],
    );
  const notes = async (slug: string) =>
    (
      await s.ctx.db.query<{ note: string }>(
        "select r.payload ->> 'note' as note from responses r join forms f on f.id = r.form_id where f.slug = $1 order by 1",
        [slug],
      )
    ).map((r) => r.note);

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: definition })).status).toBe(201);
    const other = { ...definition, slug: "forever", title: "Forever" };
    expect((await api("POST", "/api/forms", { body: other })).status).toBe(201);
    await age(await answer("feedback", "old-1"), 45);
    await age(await answer("feedback", "old-2"), 31);
    await age(await answer("feedback", "recent"), 29);
    await answer("feedback", "today");
    await age(await answer("forever", "ancient"), 400);
  });
  afterAll(() => s?.close());

  it("shows a retention change in the plan with the count the next run deletes, and asks to confirm", async () => {
    const patch = { settings: { retention_days: 30 } };
    const dry = await api("PATCH", "/api/forms/feedback?dry_run=true", { body: patch });
    expect(dry.status).toBe(200);
    expect(dry.body.destructive).toBe(true);
    expect(dry.body.changes).toContainEqual({
      kind: "retention_changed",
      detail: "retention 30 days: the next daily run deletes responses older than 30 days",
      answers_affected: 2,
    });
    expect(dry.body.summary).toContain("deletes 2 answers");
    const refused = await api("PATCH", "/api/forms/feedback", { body: patch });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("plan_needs_confirmation");
    expect(refused.body.error).toContain("2 answers to delete");
    const done = await api("PATCH", "/api/forms/feedback?confirm=true", { body: patch });
    expect(done.status).toBe(200);
    // a longer period that deletes nothing needs no confirmation
    const longer = await api("PATCH", "/api/forms/feedback?dry_run=true", {
      body: { settings: { retention_days: 60 } },
    });
    expect(longer.body.destructive).toBe(false);
  });

  it("deletes exactly the old responses and their files, once with two drains at once", async () => {
    await s.ctx.db.query("delete from upkeep_runs");
    const [a, b] = await Promise.all([drainDue(s.ctx, 5_000), drainDue(s.ctx, 5_000)]);
    expect(a.retention_deleted + b.retention_deleted).toBe(2);
    expect([a.retention_deleted, b.retention_deleted]).toContain(0);
    expect(await notes("feedback")).toEqual(["recent", "today"]);
    // a form without retention keeps everything, however old
    expect(await notes("forever")).toEqual(["ancient"]);
    for (const note of ["old-1", "old-2"]) expect((await fetch(files[note]!)).status).toBe(404);
    for (const note of ["recent", "today", "ancient"])
      expect((await fetch(files[note]!)).status).toBe(200);
    const [orphans] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from uploads where response_id is null",
    );
    expect(orphans?.n).toBe(0);
    // the day is done: a later drain the same day deletes nothing more
    await age(
      (
        await s.ctx.db.query<{ id: string }>(
          "select r.id from responses r where r.payload ->> 'note' = 'recent'",
        )
      )[0]!.id,
      35,
    );
    expect((await drainDue(s.ctx, 5_000)).retention_deleted).toBe(0);
    expect(await notes("feedback")).toEqual(["recent", "today"]);
  });
});
