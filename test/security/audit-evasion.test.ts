// Third review (docs/security-review.md): every read of responses is written to the audit log
// (SPEC §26), with the call's query among its details. Postgres refuses a NUL (`\u0000`) or a
// lone surrogate in jsonb, and the row was only logged as not written: a viewer's key exported
// every answer with `?page=%00` (REST) or `?limit=%00` (/results) and left no row behind. The
// details now keep text as Postgres can store it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDetail, writeAudit } from "../../functions/audit/log.ts";
import { accountForKey } from "../../functions/services/accounts.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a read the audit log cannot store (%s)", (kind) => {
  let s: TestServer;
  let viewerKey: string;
  const actions = async () =>
    (
      await s.ctx.db.query<{ action: string }>(
        "select action from audit_log where action like 'responses.%' order by at, id",
      )
    ).map((r) => r.action);

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Pay",
        slug: "pay",
        humanness: false,
        fields: [{ id: "salary", type: "text", label: "Salary" }],
      },
    });
    expect(made.status).toBe(201);
    await api("POST", "/api/forms/pay/submit", { key: null, body: { fields: { salary: "90k" } } });
    const member = await api("POST", "/api/members", {
      body: { email: "vi@example.com", role: "viewer" },
    });
    expect(member.status).toBe(201);
    viewerKey = member.body.key.api_key;
  });
  afterAll(() => s?.close());

  it("is still written for a REST export with a NUL in its query", async () => {
    const res = await fetch(`${s.url}/api/forms/pay/responses/export?format=csv&page=%00`, {
      headers: { authorization: `Bearer ${viewerKey}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("90k");
    expect(await actions()).toEqual(["responses.export"]);
  });

  it("is still written for a /results export with a NUL in its query", async () => {
    const signed = await fetch(`${s.url}/results/key`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: viewerKey }).toString(),
      redirect: "manual",
    });
    expect(signed.status).toBe(303);
    const cookie = signed.headers.get("set-cookie")!.split(";")[0]!;
    const res = await fetch(`${s.url}/results/forms/pay/export?format=csv&limit=%00`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("90k");
    expect(await actions()).toEqual(["responses.export", "responses.export"]);
  });

  it("keeps a lone surrogate's place (an MCP argument may carry one)", async () => {
    const account = (await accountForKey(s.ctx, viewerKey))!;
    await writeAudit(s.ctx, account, {
      action: "responses.list",
      form: "pay",
      detail: auditDetail({ value: "a\ud800b\u0000c", where: [{ value: "\u0000" }] }),
    });
    const [row] = await s.ctx.db.query<{ detail: Record<string, string> }>(
      "select detail from audit_log where action = 'responses.list'",
    );
    expect(row!.detail.value).toBe("a\ufffdbc");
  });
});
