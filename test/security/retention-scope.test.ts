// Second review (docs/security-review.md): deleting responses needs the `admin` scope (SPEC §23),
// but a `write` key could confirm a retention change (SPEC §25) whose next run deletes them:
// `settings.retention_days: 1` with `confirm` — through PATCH, PUT, deploy_form or a deploy —
// and the drain deleted every answer older than a day. Confirming that deletion needs `admin`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainDue } from "../../functions/drain-due.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Feedback",
  slug: "kept",
  humanness: false,
  fields: [{ id: "note", type: "text", label: "Note" }],
};

describe.each(DB_KINDS)("a retention change that deletes answers (%s)", (kind) => {
  let s: TestServer;
  let admin: ReturnType<typeof client>;
  let writer: ReturnType<typeof client>;
  const stored = async () =>
    (await s.ctx.db.query<{ n: number }>("select count(*)::int as n from responses"))[0]!.n;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    admin = client(s.url, s.apiKey);
    expect((await admin("POST", "/api/forms", { body: definition })).status).toBe(201);
    const sent = await admin("POST", "/api/forms/kept/submit", {
      key: null,
      body: { fields: { note: "from last month" } },
    });
    expect(sent.status).toBe(201);
    await s.ctx.db.query("update responses set submitted_at = now() - interval '40 days'");
    const key = await admin("POST", "/api/keys", { body: { name: "ci", scopes: ["write"] } });
    expect(key.status).toBe(201);
    writer = client(s.url, key.body.api_key);
  });
  afterAll(() => s?.close());

  it("is refused to a write key even when confirmed, on every path", async () => {
    const patch = { settings: { retention_days: 1 } };
    const patched = await writer("PATCH", "/api/forms/kept?confirm=true", { body: patch });
    expect([patched.status, patched.body.code]).toEqual([403, "forbidden"]);
    expect(patched.body.error).toMatch(/delete.*needs a key with the "admin" scope/);
    const file = `---\ntitle: Feedback\nslug: kept\nhumanness: false\nsettings:\n  retention_days: 1\nfields:\n  - id: note\n    type: text\n    label: Note\n---\n`;
    const put = await writer("PUT", "/api/forms/kept?confirm=true", { body: { markdown: file } });
    expect([put.status, put.body.code]).toEqual([403, "forbidden"]);
    const deployed = await writer("POST", "/api/deploys", {
      body: {
        repository: "path:repo",
        commit: null,
        complete: false,
        confirm: true,
        files: [{ path: "forms/@me/kept.md", markdown: file }],
      },
    });
    expect(deployed.status).toBe(200);
    expect(deployed.body.results[0]).toMatchObject({ result: "invalid", code: "forbidden" });
    await drainDue(s.ctx);
    expect(await stored()).toBe(1);
  });

  it("is taken from an admin key when confirmed", async () => {
    const patched = await admin("PATCH", "/api/forms/kept?confirm=true", {
      body: { settings: { retention_days: 1 } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    // the run is once a day: the first test's drain had today's
    await s.ctx.db.query("delete from upkeep_runs where job = 'retention'");
    await drainDue(s.ctx);
    expect(await stored()).toBe(0);
  });
});
