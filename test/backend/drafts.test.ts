import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { solveAltcha } from "../helpers/altcha.ts";
import { expectMatchesOpenApi } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// SPEC §16 "Drafts and test answers": an agent drafts a form, tries it from its preview, publishes
// it, and its test answers never reach counts, emails or webhooks.
let s: TestServer;
let client: Client;

beforeAll(async () => {
  await ensurePagesBuilt();
  s = await startTestServer({ db: process.env.TEST_DATABASE_URL ? "postgres" : "pglite" });
  client = new Client(
    { name: "agent", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent: Record<string, any>;
  };

const api = (path: string, init: RequestInit = {}, key: string | null = s.apiKey) =>
  fetch(`${s.url}${path}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...init.headers,
    },
  });

const form = `---
title: Launch survey
slug: launch-survey
notifications:
  email: [owner@example.com]
  strategy: { immediate_count: 10 }
fields:
  - id: rating
    type: rating
    label: How was the launch?
    required: true
---
`;

const count = async (sql: string, slug: string) =>
  (
    await s.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from ${sql} where form_id = (select id from forms where slug = $1)`,
      [slug],
    )
  )[0]!.n;

describe("a draft, its preview and its test answers", () => {
  it("drafts over MCP, previews, sends three test answers, publishes, and the counts stay real", async () => {
    const created = await call("create_form", { markdown: form, status: "draft" });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ slug: "launch-survey", status: "draft" });
    const preview = created.structuredContent.preview_url as string;
    expect(preview).toMatch(/\/preview\/[A-Za-z0-9_-]{30,}$/);
    const token = preview.split("/").pop()!;

    // a webhook on the form: test answers must not reach it
    const hook = await api("/api/forms/launch-survey/webhooks", {
      method: "POST",
      body: JSON.stringify({ url: "https://hooks.example.com/in", events: ["response.created"] }),
    });
    expect(hook.status).toBe(201);

    // no public page, no public definition, no real answers while a draft
    expect((await api("/api/forms/launch-survey/public", {}, null)).status).toBe(404);
    const real = await api(
      "/api/forms/launch-survey/submit",
      { method: "POST", body: JSON.stringify({ fields: { rating: 4 } }) },
      null,
    );
    expect(real.status).toBe(403);
    expect((await real.json()).code).toBe("form_closed");

    const page = await fetch(preview.replace(/^https?:\/\/[^/]+/, s.url));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Launch survey");
    expect(html).toContain(token);
    expect((await fetch(`${s.url}/@me/launch-survey`)).status).toBe(404);

    // from the preview page (its token in the body) and with the owner's key: no anti-bot proof
    const sent = [
      await api(
        "/api/forms/launch-survey/submit",
        { method: "POST", body: JSON.stringify({ fields: { rating: 5 }, preview: token }) },
        null,
      ),
      await api("/api/forms/launch-survey/submit", {
        method: "POST",
        body: JSON.stringify({ fields: { rating: 3 } }),
      }),
      await api("/api/forms/launch-survey/submit", {
        method: "POST",
        body: JSON.stringify({ fields: { rating: 1 } }),
      }),
    ];
    for (const r of sent) {
      expect(r.status).toBe(201);
      const body = await r.json();
      expect(body.test).toBe(true);
      expectMatchesOpenApi("POST", "/api/forms/launch-survey/submit", 201, body);
    }
    const wrong = await api(
      "/api/forms/launch-survey/submit",
      { method: "POST", body: JSON.stringify({ fields: { rating: 5 }, preview: `${token}x` }) },
      null,
    );
    expect(wrong.status).toBe(403);
    const other = await api(
      "/api/forms/launch-survey/submit",
      { method: "POST", body: JSON.stringify({ fields: { rating: 5 } }) },
      await s.otherKey(),
    );
    expect(other.status).toBe(403);

    const published = await call("publish_form", { slug: "launch-survey" });
    expect(published.structuredContent).toMatchObject({ status: "live", published: true });
    expect((await api("/api/forms/launch-survey/public", {}, null)).status).toBe(200);

    const report = await call("get_response_report", { slug: "launch-survey" });
    // 0 in the period and 0 in all (the report says a total only when it differs)
    expect(report.structuredContent.markdown).toContain("**0** responses in the last 7 days · ");
    expect(report.structuredContent.markdown).not.toMatch(/in total/);
    const stats = await (await api("/api/forms/launch-survey/stats")).json();
    expect(stats.responses).toBe(0);
    const list = await (await api("/api/forms/launch-survey/responses")).json();
    expect(list.total).toBe(0);
    const withTest = await (
      await api("/api/forms/launch-survey/responses?include_test=true")
    ).json();
    expect(withTest.total).toBe(3);
    expectMatchesOpenApi("GET", "/api/forms/launch-survey/responses", 200, withTest);
    expect(withTest.responses.every((r: { test?: boolean }) => r.test === true)).toBe(true);
    const csv = await (await api("/api/forms/launch-survey/responses/export?format=csv")).text();
    expect(csv.trim().split("\n")).toHaveLength(1);
    expect((await api("/api/forms/launch-survey/responses?include_test=yes")).status).toBe(400);

    // nothing was sent for them: no email row, no webhook delivery
    expect(await count("outbox", "launch-survey")).toBe(0);
    expect(
      (
        await s.ctx.db.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
            join forms f on f.id = w.form_id where f.slug = $1`,
          ["launch-survey"],
        )
      )[0]!.n,
    ).toBe(0);

    // cleared in one call
    const cleared = await api("/api/forms/launch-survey/responses?test=true", { method: "DELETE" });
    const clearedBody = await cleared.json();
    expect(clearedBody).toEqual({ deleted: 3 });
    expectMatchesOpenApi("DELETE", "/api/forms/launch-survey/responses", 200, clearedBody);
    const after = await (await api("/api/forms/launch-survey/responses?include_test=true")).json();
    expect(after.total).toBe(0);

    // a real answer after publishing is the first one: seq 1, its email and its delivery written
    const first = await api(
      "/api/forms/launch-survey/submit",
      {
        method: "POST",
        body: JSON.stringify({ fields: { rating: 4 }, turnstile_token: await solveAltcha(s.url) }),
      },
      null,
    );
    expect(first.status).toBe(201);
    const { response_id } = await first.json();
    const [row] = await s.ctx.db.query<{ seq: number; test: boolean }>(
      "select seq, test from responses where id = $1",
      [response_id],
    );
    expect(row).toEqual({ seq: 1, test: false });
    expect(await count("outbox", "launch-survey")).toBe(1);
  });

  it("publishes over REST, and answers 404/403 for a form that is not there or not the caller's", async () => {
    const made = await api("/api/forms", {
      method: "POST",
      body: JSON.stringify({
        markdown: form.replace("launch-survey", "rest-draft"),
        status: "draft",
      }),
    });
    expect(made.status).toBe(201);
    const created = await made.json();
    expectMatchesOpenApi("POST", "/api/forms", 201, created);
    const detail = await (await api("/api/forms/rest-draft")).json();
    expect(detail).toMatchObject({ status: "draft", preview_url: created.preview_url });
    expect(detail.file_path).toBeNull();
    const published = await api("/api/forms/rest-draft/publish", { method: "POST" });
    const body = await published.json();
    expectMatchesOpenApi("POST", "/api/forms/rest-draft/publish", 200, body);
    expect(body).toMatchObject({ status: "live", published: true });
    expect((await (await api("/api/forms/rest-draft")).json()).file_path).toBe(
      "forms/@me/rest-draft.md",
    );
    const again = await (await api("/api/forms/rest-draft/publish", { method: "POST" })).json();
    expect(again.published).toBe(false);
    const missing = await api("/api/forms/nope/publish", { method: "POST" });
    expect(missing.status).toBe(404);
    expectMatchesOpenApi("POST", "/api/forms/nope/publish", 404, await missing.json());
    const theirs = await api(
      "/api/forms/rest-draft/publish",
      { method: "POST" },
      await s.otherKey(),
    );
    expect(theirs.status).toBe(403);
    const wrongTest = await api("/api/forms/rest-draft/responses?test=maybe", { method: "DELETE" });
    expect(wrongTest.status).toBe(400);
  });

  it("refuses a status other than draft or live with a clear 400", async () => {
    const res = await api("/api/forms", {
      method: "POST",
      body: JSON.stringify({
        markdown: form.replace("launch-survey", "other-one"),
        status: "secret",
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed" });
  });
});
