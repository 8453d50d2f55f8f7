import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { type Agent, CLIENT_KINDS, connectAgent, type ToolAnswer } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** A respondent answering through the submit_url a tool gave, with the anti-bot token if asked. */
async function respond(form: { submit_url: string; humanness: boolean }, fields: object) {
  const token = form.humanness ? { turnstile_token: await solveAltcha(s.url) } : {};
  const res = await fetch(form.submit_url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fields, ...token }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

/** Twenty answers: 6 detractors (each with a comment), 5 passives, 9 promoters: NPS 15. */
const SCORES = [0, 3, 5, 6, 6, 2, 7, 8, 7, 8, 7, 9, 10, 9, 10, 10, 9, 9, 10, 9];
const comment = (i: number) => `Detractor ${i}: too slow & <b>buggy</b>`;

const npsSurvey = (slug: string) => ({
  title: "How likely are you to recommend us?",
  slug,
  type: "survey",
  fields: [
    { id: "score", type: "nps", label: "How likely are you to recommend us?", required: true },
    {
      id: "why",
      type: "textarea",
      label: "What disappointed you?",
      show_if: { field: "score", op: "lte", value: 6 },
    },
  ],
});

describe("the NPS survey task, as an agent with only the URL and a key", () => {
  it.each(CLIENT_KINDS)("finishes in at most 8 tool calls with none failed (%s)", async (kind) => {
    const agent = await connectAgent(kind, s.url, s.apiKey);
    const slug = `nps-${kind.replace(/\W+/g, "-").toLowerCase()}`;
    // 1. create (and publish: a created form is live at once)
    const created = (await agent.call("create_form", { definition: npsSurvey(slug) }))
      .structuredContent;
    expect(created).toMatchObject({ slug, status: "live", humanness: true });
    expect(created.submit_url).toBe(`${s.url}/api/forms/${slug}/submit`);
    // respondents answer (not the agent's calls)
    for (const [i, score] of SCORES.entries())
      await respond(created as never, score <= 6 ? { score, why: comment(i) } : { score });
    // 2. the report: NPS and every detractor comment, as data
    const report = (
      await agent.call("get_response_report", { slug, period: "all", text_limit: 100 })
    ).structuredContent;
    const [score, why] = report.summary.fields;
    expect(report.summary.responses).toBe(20);
    expect(score).toMatchObject({
      id: "score",
      type: "nps",
      answered: 20,
      nps: { score: 15, promoters: 9, passives: 5, detractors: 6 },
    });
    expect(why.more).toBe(0);
    expect([...why.answers].sort()).toEqual(
      SCORES.flatMap((v, i) => (v <= 6 ? [comment(i)] : [])).sort(),
    );
    expect(report.markdown).toContain("NPS **15**");
    console.log(`NPS task over ${kind}: ${agent.calls} tool calls, ${agent.failed.length} failed`);
    expect(agent.failed).toEqual([]);
    expect(agent.calls).toBeLessThanOrEqual(8);
    await agent.close();
  });

  it("announces a cut: 5 of 6 detractor comments by default, and says 1 more", async () => {
    const agent = await connectAgent("bare POST", s.url, s.apiKey);
    const report = (await agent.call("get_response_report", { slug: "nps-v2-sdk", period: "all" }))
      .structuredContent;
    const why = report.summary.fields[1];
    expect(why.answers).toHaveLength(5);
    expect(why.more).toBe(1);
    expect(report.markdown).toContain("…and 1 more.");
    const one = (
      await agent.call("get_response_report", {
        slug: "nps-v2-sdk",
        period: "all",
        field: "why",
        text_limit: 6,
      })
    ).structuredContent;
    expect(one.summary.fields.map((f: { id: string }) => f.id)).toEqual(["why"]);
    expect(one.summary.fields[0]).toMatchObject({ more: 0 });
    expect(one.summary.fields[0].answers).toHaveLength(6);
    expect(agent.failed).toEqual([]);
  });

  it("stats and report tell one story about starts", async () => {
    const agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    const stats = (await agent.call("get_form_stats", { slug: "nps-v1-sdk" })).structuredContent;
    const report = (await agent.call("get_response_report", { slug: "nps-v1-sdk", period: "all" }))
      .structuredContent;
    expect(stats).toMatchObject({ responses: 20, starts: 20, completion_rate: 1 });
    expect(report.markdown).toContain(`${stats.starts} starts · completion 100%`);
    // the drop-off funnel counts the answers where no page reported progress
    expect(report.markdown).toContain("| How likely are you to recommend us? | 20 | 20 | 100% |");
    await agent.close();
  });
});

describe("a scripted agent run over every tool, each answer checked against its outputSchema", () => {
  let agent: Agent;
  const answers: [string, ToolAnswer][] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await agent.call(name, args);
    answers.push([name, answer]);
    return answer.structuredContent;
  };
  afterAll(() => agent?.close());

  it("create → publish → 20 submits → report → edit → deploy a file → export → delete, no failed call", async () => {
    agent = await connectAgent("v1 SDK", s.url, s.apiKey);
    const me = await call("whoami");
    expect(me).toEqual({ handler: s.handler, forms_dir: `forms/@${s.handler}/`, forms: 3 });
    const definition = {
      title: "Lunch poll",
      slug: "lunch-poll",
      humanness: false,
      fields: [
        { id: "dish", type: "radio", options: ["Pizza", "Sushi"], required: true },
        { id: "budget", type: "number" },
      ],
    };
    expect((await call("validate_form", { definition })).valid).toBe(true);
    const created = await call("create_form", { definition });
    expect(created).not.toHaveProperty("form_slug");
    expect(created).toMatchObject({ humanness: false, status: "live" });
    // its logic tested before answers come (SPEC §24): one case, shown as passed
    const logicRun = await call("test_form", {
      slug: "lunch-poll",
      cases: [
        { name: "pizza", answers: { dish: "Pizza" }, expect: { shown: ["budget"], valid: true } },
      ],
    });
    expect(logicRun).toMatchObject({ passed: 1, failed: 0 });
    // a live form published again stays as it is (drafts: test/backend/drafts.test.ts)
    expect(await call("publish_form", { slug: "lunch-poll" })).toMatchObject({ published: false });
    const access = await call("update_form_access", { slug: "lunch-poll", mode: "public" });
    expect(access.submit_url).toBe(created.submit_url);
    // back to back: on PGlite two may share a millisecond, and their ids (response-id.ts) keep
    // the order they came in, so the latest is the last
    for (let i = 0; i < 20; i++)
      await respond(created as never, { dish: i % 4 ? "Pizza" : "Sushi", budget: 10 + i });
    const report = await call("get_response_report", { slug: "lunch-poll", period: "all" });
    expect(report.summary.fields[0].options).toEqual([
      { option: "Pizza", count: 15, share: 0.75 },
      { option: "Sushi", count: 5, share: 0.25 },
    ]);
    expect(report.summary.fields[1]).toMatchObject({ mean: 19.5, median: 19.5, min: 10, max: 29 });
    const stats = await call("get_form_stats", { slug: "lunch-poll" });
    expect(stats).not.toHaveProperty("submissions");
    const edited = await call("update_form", {
      slug: "lunch-poll",
      patch: { title: "Lunch vote" },
    });
    // what changed and the plan, not the whole config (get_form has that)
    expect(edited).toMatchObject({
      slug: "lunch-poll",
      changed: ["title"],
      plan: { changes: [{ kind: "content_changed" }] },
    });
    expect(edited).not.toHaveProperty("config");
    expect(JSON.stringify(edited).length).toBeLessThan(600);
    expect((await call("get_form", { slug: "lunch-poll" })).title).toBe("Lunch vote");
    const added = await call("add_field", {
      slug: "lunch-poll",
      field: { id: "notes", type: "textarea", label: "Anything else?" },
    });
    expect(added.config.fields).toHaveLength(3);
    // one field at a time: short answers, the guard on a field with answers (SPEC §18)
    const reworded = await call("update_field", {
      slug: "lunch-poll",
      field_id: "notes",
      changes: { label: "Anything else to add?" },
    });
    expect(reworded).toMatchObject({ field: { label: "Anything else to add?" } });
    expect(reworded).not.toHaveProperty("config");
    const moved = await call("move_field", {
      slug: "lunch-poll",
      field_id: "notes",
      before: "budget",
    });
    expect(moved.plan.changes[0]).toMatchObject({ kind: "field_moved", field: "notes" });
    const kept = await call("remove_field", {
      slug: "lunch-poll",
      field_id: "budget",
      dry_run: true,
    });
    expect(kept.plan).toMatchObject({ destructive: true });
    const removed = await call("remove_field", { slug: "lunch-poll", field_id: "notes" });
    expect(removed).toMatchObject({ field: { id: "notes" }, plan: { destructive: false } });
    const file = await call("get_form_file", { slug: "lunch-poll" });
    expect(file.path).toBe(`forms/@${s.handler}/lunch-poll.md`);
    const content = file.content.replace("title: Lunch vote", "title: Lunch, decided");
    const deployed = await call("deploy_form", { slug: "lunch-poll", content });
    expect(deployed).toMatchObject({
      result: "updated",
      slug: "lunch-poll",
      path: file.path,
      url: `${s.url}/@${s.handler}/lunch-poll`,
      public_url: `${s.url}/@${s.handler}/lunch-poll`,
      submit_url: created.submit_url,
    });
    // a new file need not repeat its slug: the name says it
    const fresh = await call("deploy_form", {
      slug: "tea-poll",
      content: "---\ntitle: Tea?\nhumanness: false\nfields:\n  - id: tea\n    type: yes_no\n---\n",
    });
    expect(fresh).toMatchObject({ result: "created", slug: "tea-poll" });
    expect((await call("get_form_file", { slug: "tea-poll" })).content).toContain("slug: tea-poll");
    const form = await call("get_form", { slug: "lunch-poll" });
    expect(form).toMatchObject({ title: "Lunch, decided", submit_url: created.submit_url });
    const forms = await call("list_forms");
    for (const f of forms.forms) expect(f).toHaveProperty("submit_url");
    const listed = await call("list_responses", { slug: "lunch-poll", limit: 5 });
    expect(listed).toMatchObject({ total: 20, page: 1, limit: 5 });
    const latest = await call("get_responses", { slug: "lunch-poll", limit: 1 });
    const one = await call("get_response", {
      slug: "lunch-poll",
      response_id: latest.responses[0].id,
    });
    expect(one.payload.budget).toBe(29);
    const csv = await call("export_responses", { slug: "lunch-poll", format: "csv" });
    expect(csv.content.split("\r\n")).toHaveLength(22);
    const hook = await call("add_webhook", { slug: "lunch-poll", url: `${s.url}/hook-receiver` });
    expect(hook.secret).toMatch(/^whsec_/);
    const hooks = await call("list_webhooks", { slug: "lunch-poll" });
    expect(hooks.webhooks).toEqual([expect.objectContaining({ id: hook.id })]);
    expect(hooks.webhooks[0]).not.toHaveProperty("secret");
    // the server itself answers 404 to the test event: said, not raised
    const tested = await call("test_webhook", { slug: "lunch-poll", webhook_id: hook.id });
    expect(tested).toMatchObject({ delivered: false, status: 404 });
    const log = await call("list_webhook_deliveries", { slug: "lunch-poll", webhook_id: hook.id });
    expect(log).toMatchObject({
      total: 1,
      deliveries: [{ event: "webhook.test", status: "failed" }],
    });
    expect(await call("delete_webhook", { slug: "lunch-poll", webhook_id: hook.id })).toEqual({
      deleted: true,
      webhook_id: hook.id,
    });
    // personal links (SPEC §25)
    const minted = await call("create_invites", { slug: "lunch-poll", count: 2 });
    expect(minted.invites).toHaveLength(2);
    const token = minted.invites[0].token;
    expect(await call("revoke_invite", { slug: "lunch-poll", token })).toEqual({
      revoked: true,
      token,
    });
    const invites = await call("list_invites", { slug: "lunch-poll" });
    expect(invites.invites.map((i: { state: string }) => i.state).sort()).toEqual([
      "revoked",
      "sent",
    ]);
    // the audit log (SPEC §26) names the invites just minted and revoked, by this key's account
    const audit = await call("list_audit", { action: "invites.revoke" });
    expect(audit.entries.length).toBeGreaterThanOrEqual(1);
    expect(audit.entries[0]).toMatchObject({ action: "invites.revoke" });
    const gone = await call("delete_response", { slug: "lunch-poll", response_id: one.id });
    expect(gone).toEqual({ deleted: true, response_id: one.id });
    // the form app's own tool (SPEC §18): a test answer, left out of the count below
    const tried = await call("try_form", { slug: "lunch-poll", fields: { dish: "Pizza" } });
    expect(tried).toHaveProperty("response_id");
    expect((await call("get_form_stats", { slug: "lunch-poll" })).responses).toBe(19);
    // erasing by a filter (SPEC §18): exactly the responses the same filter lists
    const sushi = [{ field: "dish", op: "eq", value: "Sushi" }];
    const matched = await call("list_responses", { slug: "lunch-poll", where: sushi, limit: 200 });
    expect(matched.total).toBeGreaterThan(0);
    const erased = await call("delete_responses", { slug: "lunch-poll", where: sushi });
    expect(erased).toEqual({ deleted: matched.total });
    expect((await call("get_form_stats", { slug: "lunch-poll" })).responses).toBe(
      19 - matched.total,
    );
    expect(await call("delete_form", { slug: "tea-poll" })).toEqual({
      deleted: true,
      slug: "tea-poll",
    });
    console.log(`scripted run (v1 SDK): ${agent.calls} tool calls, ${agent.failed.length} failed`);
    expect(agent.failed).toEqual([]);
  });

  it("every tool was called, and every answer (errors too) validates against its outputSchema", async () => {
    // a failed call answers {error, code}, which every outputSchema admits
    answers.push(["get_form", await agent.call("get_form", { slug: "nope" })]);
    const tools = await agent.listTools();
    const ajv = new Ajv2020({ strict: false });
    const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
    for (const [name, answer] of answers) {
      const validate = validators.get(name)!;
      expect(
        validate(answer.structuredContent),
        `${name}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
      expect(JSON.parse(answer.content[0]!.text)).toEqual(answer.structuredContent);
    }
    expect(new Set(answers.map(([name]) => name))).toEqual(new Set(tools.map((t) => t.name)));
  });
});

describe("resources and prompts", () => {
  it("lists every form file as formdown://forms/<slug> beside the schema, and reads them", async () => {
    const rpc = async (method: string, params: object) =>
      (await (
        await fetch(`${s.url}/api/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        })
      ).json()) as any;
    const { result } = await rpc("resources/list", {});
    const uris = result.resources.map((r: { uri: string }) => r.uri);
    expect(uris).toContain("formdown://schema/form");
    expect(uris).toContain("formdown://forms/lunch-poll");
    const read = await rpc("resources/read", { uri: "formdown://forms/lunch-poll" });
    expect(read.result.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    expect(read.result.contents[0].text).toContain("title: Lunch, decided");
    const missing = await rpc("resources/read", { uri: "formdown://forms/nope" });
    expect(missing.error.code).toBe(-32602);
    const prompts = await rpc("prompts/list", {});
    expect(prompts.result.prompts.map((p: { name: string }) => p.name)).toEqual([
      "analyze_responses",
    ]);
    const prompt = await rpc("prompts/get", {
      name: "analyze_responses",
      arguments: { slug: "lunch-poll" },
    });
    expect(prompt.result.messages[0].content.text).toContain("get_response_report");
  });
});
