// MCP Apps (SPEC §18) the way a host shows them: the app's document read from the server's
// ui:// resource into a sandboxed iframe of Chromium, ext-apps' AppBridge over PostMessageTransport,
// the app's tool calls forwarded to a real MCP client on the running server.
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostApp } from "../helpers/apps-host.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let browser: SuiteBrowser;
let client: Client;

const example = (name: string) =>
  readFileSync(new URL(`../../forms/@me/${name}.md`, import.meta.url), "utf8")
    // the example's translation files and mail recipients are not part of this test
    .replace(/^languages:.*\n/m, "");

const tried = {
  title: "Tried",
  slug: "tried",
  humanness: false,
  fields: [
    { id: "role", type: "radio", label: "Your role", options: ["Engineering", "Product"] },
    {
      id: "aspects",
      type: "matrix",
      label: "Rate these",
      rows: [
        { id: "speed", label: "Speed" },
        { id: "docs", label: "Docs" },
      ],
      columns: ["Poor", "Good"],
    },
    { id: "order", type: "ranking", label: "Order these", options: ["Price", "Support"] },
  ],
};

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Record<string, any>;

beforeAll(async () => {
  s = await startTestServer();
  browser = await launch();
  client = new Client({ name: "test-host", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
    }),
  );
  for (const name of ["product-survey", "quiz"])
    expect((await call("deploy_form", { slug: name, content: example(name) })).result).toBe(
      "created",
    );
  expect((await call("create_form", { definition: tried })).slug).toBe("tried");
  for (const role of ["Engineering", "Product", "Product"]) {
    const res = await fetch(`${s.url}/api/forms/tried/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { role } }),
    });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await client?.close();
  await browser?.close();
  await s?.close();
});

describe("the server offers its apps", () => {
  it("lists both ui:// documents and names them on the six tools; try_form is the model's too", async () => {
    const { resources } = await client.listResources();
    for (const uri of ["ui://formdown/form", "ui://formdown/report"]) {
      const entry = resources.find((r) => r.uri === uri);
      expect(entry?.mimeType).toBe("text/html;profile=mcp-app");
      const { contents } = await client.readResource({ uri });
      const doc = contents[0] as { text: string; _meta?: any; mimeType: string };
      expect(doc.mimeType).toBe("text/html;profile=mcp-app");
      expect(doc._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [] });
      // one document: nothing it names is fetched from anywhere
      expect(doc.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import/i);
      console.log(`${uri}: ${doc.text.length} bytes`);
    }
    const { tools } = await client.listTools();
    const ui = (name: string) => (tools.find((t) => t.name === name)?._meta as any)?.ui;
    for (const name of ["create_form", "get_form", "update_form", "deploy_form"])
      expect(ui(name).resourceUri).toBe("ui://formdown/form");
    for (const name of ["get_response_report", "get_form_stats"])
      expect(ui(name).resourceUri).toBe("ui://formdown/report");
    // the owner's test path to a live form: a host that follows visibility shows it to the model
    expect(ui("try_form")?.visibility).toBeUndefined();
  });
});

describe("the form app shows the respondent's page", () => {
  it("a survey: its first question, one at a time, as the static page", async () => {
    const host = await hostApp(browser, client, "ui://formdown/form", "get_form", {
      slug: "product-survey",
    });
    const app = await host.app();
    await app.locator("formdown-form h1").getByText("How are we doing?").waitFor();
    await expect(app.locator('[data-field="recommend"]').isVisible()).resolves.toBe(true);
    await expect(app.locator('[data-field="aspects"]').isVisible()).resolves.toBe(false);
    await expect(app.locator("[data-step]").textContent()).resolves.toMatch(/1/);
    expect(host.errors).toEqual([]);
  });

  it("a form with a matrix and a ranking: both controls, and Try it stores a test response", async () => {
    const host = await hostApp(browser, client, "ui://formdown/form", "get_form", {
      slug: "tried",
    });
    const app = await host.app();
    await app.locator('[data-field="aspects"] input[data-row="docs"]').first().waitFor();
    await expect(app.locator("[data-ranking] li").count()).resolves.toBe(2);
    await app.locator('input[name="role"][value="Engineering"]').check();
    await app.locator('input[name="aspects.speed"][value="Good"]').check();
    await app.locator("[data-submit]").click();
    await app.locator(".fd-done").waitFor();
    const submit = host.calls.find((c) => c.name === "try_form" && c.args.fields);
    expect(submit?.args.fields).toMatchObject({ role: "Engineering", aspects: { speed: "Good" } });
    const withTest = await call("list_responses", { slug: "tried", include_test: true });
    expect(withTest.total).toBe(4);
    expect((await call("list_responses", { slug: "tried" })).total).toBe(3);
    expect((await call("get_form_stats", { slug: "tried" })).responses).toBe(3);
    expect(host.errors).toEqual([]);
  });

  it("a quiz: Try it shows the score the API worked out", async () => {
    const host = await hostApp(browser, client, "ui://formdown/form", "get_form", { slug: "quiz" });
    const app = await host.app();
    await app.locator('input[name="http_status"][value="404"]').check();
    await app.locator('input[name="safe_methods"][value="GET"]').check();
    await app.locator('input[name="safe_methods"][value="HEAD"]').check();
    await app.locator('input[name="https_default"][value="yes"]').check();
    await app.locator("[data-submit]").click();
    await app.locator(".fd-score").waitFor();
    await expect(app.locator(".fd-score").textContent()).resolves.toMatch(/100/);
    const listed = await call("list_responses", { slug: "quiz", include_test: true });
    expect(listed.total).toBe(1);
    expect((await call("list_responses", { slug: "quiz" })).total).toBe(0);
  });
});

describe("the report app draws the report and drills down", () => {
  it("lists the responses of the option clicked, filtered by list_responses {where}", async () => {
    const host = await hostApp(browser, client, "ui://formdown/report", "get_response_report", {
      slug: "tried",
      period: "all",
    });
    const app = await host.app();
    const bar = app.locator('[data-field="role"] rect[data-key="Product"]');
    await bar.waitFor();
    await bar.click();
    const drill = app.locator('[data-drill="role=Product"] li');
    await drill.first().waitFor();
    await expect(drill.count()).resolves.toBe(2);
    const ids = await drill.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-response")));
    const all = await call("list_responses", { slug: "tried" });
    const product = all.responses.filter((r: any) => r.payload.role === "Product");
    expect(ids.sort()).toEqual(product.map((r: any) => r.id).sort());
    // filtered in the database, not by the app
    const listed = host.calls.find((c) => c.name === "list_responses");
    expect(listed?.args.where).toEqual([{ field: "role", op: "eq", value: "Product" }]);
    expect(host.errors).toEqual([]);
  });

  it("reaches each bar by keyboard: a named button that Enter presses", async () => {
    const host = await hostApp(browser, client, "ui://formdown/report", "get_response_report", {
      slug: "tried",
      period: "all",
    });
    const app = await host.app();
    const bar = app.getByRole("button", { name: "Engineering: list responses" });
    await bar.waitFor();
    await expect(bar.getAttribute("tabindex")).resolves.toBe("0");
    // Tab from the top of the document reaches it
    const page = host.page;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const focused = await app
        .locator(":focus")
        .getAttribute("data-key")
        .catch(() => null);
      if (focused === "Engineering") break;
    }
    await expect(app.locator(":focus").getAttribute("data-key")).resolves.toBe("Engineering");
    await page.keyboard.press("Enter");
    const drill = app.locator('[data-drill="role=Engineering"] li');
    await drill.first().waitFor();
    await expect(drill.count()).resolves.toBe(1);
    expect(host.errors).toEqual([]);
  });
});

describe("both apps complete ui/initialize whichever side connects first", () => {
  for (const connect of ["before", "after"] as const) {
    it(`the form app, the host connecting ${connect} the app loaded`, async () => {
      const host = await hostApp(
        browser,
        client,
        "ui://formdown/form",
        "get_form",
        { slug: "tried" },
        connect,
      );
      const app = await host.app();
      await app.locator('input[name="role"][value="Engineering"]').waitFor();
      expect(host.calls.map((c) => c.name)).toEqual(["try_form"]);
      expect(host.errors).toEqual([]);
      await host.page.close();
    });

    it(`the report app, the host connecting ${connect} the app loaded`, async () => {
      const host = await hostApp(
        browser,
        client,
        "ui://formdown/report",
        "get_response_report",
        { slug: "tried", period: "all" },
        connect,
      );
      const app = await host.app();
      await app.locator('[data-field="role"] rect[data-key="Product"]').waitFor();
      expect(host.errors).toEqual([]);
      await host.page.close();
    });
  }
});
