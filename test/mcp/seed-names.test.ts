// Every answer field the seed (form-service-interface.md) and SPEC §7/§11/§14 name for a tool,
// pinned through the real server: a rename (deploy_form's url once became public_url) fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientKind, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** Tool → the fields its answer must carry; `a[].b` looks into the first item of list a. */
const NAMES: Record<string, string[]> = {
  // seed: "deploy_form … returns url, slug, form_id" (and SPEC §7 `{url, slug, form_id}`)
  deploy_form: ["url", "slug", "form_id"],
  // seed: POST /api/forms response A (its `form_slug` alias is REST's alone, SPEC §14)
  create_form: ["slug", "status", "public_url", "short_url"],
  // seed: Form detail and Stats
  get_form: ["slug", "title", "config", "stats.views", "stats.responses"],
  // seed: Form summary (list item)
  list_forms: [
    "forms[].slug",
    "forms[].title",
    "forms[].created_at",
    "forms[].stats.views",
    "forms[].stats.responses",
  ],
  get_form_stats: [
    "views",
    "responses",
    "completion_rate",
    "sparkline_7d[].date",
    "sparkline_7d[].count",
  ],
  // seed: Response record
  list_responses: ["responses[].id", "responses[].submitted_at", "responses[].payload"],
  get_responses: ["responses[].id", "responses[].submitted_at", "responses[].payload"],
  get_response: ["id", "submitted_at", "payload"],
  // SPEC §7, §14
  get_response_report: ["period", "markdown", "summary.responses", "summary.fields[].id"],
  export_responses: ["format", "content"],
  whoami: ["handler", "forms_dir", "forms"],
  get_form_file: ["path", "content"],
  // SPEC §11, §18
  add_webhook: ["id", "url", "events", "secret", "created_at"],
  list_webhooks: ["webhooks[].id", "webhooks[].url", "webhooks[].events"],
  test_webhook: ["delivered", "status"],
  list_webhook_deliveries: [
    "deliveries[].id",
    "deliveries[].event",
    "deliveries[].status",
    "deliveries[].attempts",
    "total",
  ],
  // SPEC §25: {invites: [{token, url, email?}]}
  create_invites: ["invites[].token", "invites[].url"],
  list_invites: ["invites[].token", "invites[].url", "invites[].state"],
};

/** Named but not in every answer: format "html" answers html in place of markdown. */
const NOT_ALWAYS = new Set(["get_response_report markdown"]);

/** The value at a dotted path, `[]` taking a list's first item; undefined when any step is missing. */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const step of path.split(".")) {
    const list = step.endsWith("[]");
    v = (v as Record<string, unknown> | undefined)?.[list ? step.slice(0, -2) : step];
    if (list) v = Array.isArray(v) ? v[0] : undefined;
  }
  return v;
}

describe.each(["v2 SDK", "v1 SDK"] as ClientKind[])("seed-named answer fields (%s)", (kind) => {
  it("every tool's outputSchema requires them and every answer carries them", async () => {
    const agent = await connectAgent(kind, s.url, s.apiKey);
    const slug = `seed-${kind === "v2 SDK" ? "v2" : "v1"}`;
    const tools = new Map((await agent.listTools()).map((t) => [t.name, t]));
    for (const [name, paths] of Object.entries(NAMES)) {
      const schema = tools.get(name)?.outputSchema as { anyOf: { required: string[] }[] };
      expect(schema, `${name} is listed`).toBeDefined();
      const top = [...new Set(paths.map((p) => p.split(/[.[]/)[0]!))].filter(
        (key) => !NOT_ALWAYS.has(`${name} ${key}`),
      );
      expect(schema.anyOf[0]!.required, name).toEqual(expect.arrayContaining(top));
    }
    const answers: Record<string, unknown> = {};
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const answer = await agent.call(name, args);
      expect(answer.isError, `${name}: ${JSON.stringify(answer.structuredContent)}`).toBeFalsy();
      answers[name] = answer.structuredContent;
      return answer.structuredContent;
    };
    const definition = {
      title: "Seed",
      slug,
      humanness: false,
      fields: [{ id: "a", type: "text" }],
    };
    await call("create_form", { definition });
    const submitted = await fetch(`${s.url}/api/forms/${slug}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { a: "hello" } }),
    });
    expect(submitted.status).toBe(201);
    const file = await call("get_form_file", { slug });
    await call("deploy_form", { path: file.path, content: file.content.replace("Seed", "Seeded") });
    await call("get_form", { slug });
    await call("list_forms");
    await call("get_form_stats", { slug });
    const { responses } = await call("list_responses", { slug });
    await call("get_responses", { slug, limit: 1 });
    await call("get_response", { slug, response_id: responses[0].id });
    await call("get_response_report", { slug, period: "all" });
    await call("export_responses", { slug, format: "json" });
    await call("whoami");
    const hook = await call("add_webhook", { slug, url: `${s.url}/nowhere` });
    await call("list_webhooks", { slug });
    await call("test_webhook", { slug, webhook_id: hook.id });
    await call("list_webhook_deliveries", { slug, webhook_id: hook.id });
    await call("create_invites", { slug, count: 1 });
    await call("list_invites", { slug });
    for (const [name, paths] of Object.entries(NAMES))
      for (const path of paths) expect(at(answers[name], path), `${name} → ${path}`).toBeDefined();
    expect(at(answers.deploy_form, "url")).toBe(`${s.url}/@${s.handler}/${slug}`);
    await agent.close();
  });
});
