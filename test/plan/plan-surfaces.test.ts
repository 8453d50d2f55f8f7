// SPEC §16 "Plan" and "Nothing silently disappears" on every surface other than the CLI (which
// five-deploys.test.ts drives): REST plan and dry runs, the 409 guard and confirm, MCP dry_run and
// confirm through a real SDK client, and the start-up deploy of repository files.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Log } from "../../functions/context.ts";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Signup",
  slug: "signup",
  humanness: false,
  fields: [
    { id: "email", type: "email" },
    { id: "size", type: "select", options: ["S", "M", "L"] },
    { id: "note", type: "text" },
  ],
};

for (const kind of DB_KINDS) {
  describe(`plans and the guard (${kind})`, { timeout: 120_000 }, () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    let agent: Agent;
    const logged: string[] = [];
    const log: Log = { info: (m) => logged.push(m), error: (m) => logged.push(m) };

    beforeAll(async () => {
      s = await startTestServer({ db: kind, log });
      api = client(s.url, s.apiKey);
      const plan = await api("POST", "/api/forms/signup/plan", { body: definition });
      expect(plan.status).toBe(200);
      expect(plan.body).toMatchObject({ from_version: null, destructive: false });
      expect(plan.body.changes[0].kind).toBe("form_created");
      expect((await api("POST", "/api/forms", { body: definition })).status).toBe(201);
      for (let i = 0; i < 6; i++) {
        const fields = { email: `p${i}@example.com`, size: i < 2 ? "S" : "M", note: `n${i}` };
        const res = await api("POST", "/api/forms/signup/submit", { key: null, body: { fields } });
        expect(res.status).toBe(201);
      }
      agent = await connectAgent("v1 SDK", s.url, s.apiKey);
    }, 300_000);

    afterAll(async () => {
      await agent?.close();
      await s?.close();
    });

    it("PATCH ?dry_run=true answers the plan with counts and changes nothing", async () => {
      const patch = { fields: [definition.fields[0], definition.fields[1]] };
      const dry = await api("PATCH", "/api/forms/signup?dry_run=true", { body: patch });
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ slug: "signup", from_version: 1, destructive: true });
      expect(dry.body.changes).toEqual([
        { kind: "field_removed", field: "note", detail: "field note", answers_affected: 6 },
      ]);
      expect((await api("GET", "/api/forms/signup/versions")).body.version).toBe(1);
      // the same body through POST /plan (a patch: it states no slug)
      const plan = await api("POST", "/api/forms/signup/plan", { body: patch });
      expect(plan.body.changes).toEqual(dry.body.changes);
    });

    it("refuses a destructive PATCH with the plan in details until ?confirm=true; answers stay", async () => {
      const patch = {
        fields: [definition.fields[0], { id: "size", type: "select", options: ["M", "L"] }],
      };
      const refused = await api("PATCH", "/api/forms/signup", { body: patch });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("plan_needs_confirmation");
      expect(refused.body.error).toContain('- option size "S": 2 answers retired');
      expect(refused.body.details.destructive).toBe(true);
      expect(refused.body.details.changes).toContainEqual({
        kind: "option_removed",
        field: "size",
        option: "S",
        detail: 'option size "S"',
        answers_affected: 2,
      });
      expect((await api("PATCH", "/api/forms/signup?confirm=maybe", { body: patch })).status).toBe(
        400,
      );
      const done = await api("PATCH", "/api/forms/signup?confirm=true", { body: patch });
      expect(done.status).toBe(200);
      const stored = await api("GET", "/api/forms/signup/responses?limit=50");
      expect(stored.body.total).toBe(6);
      expect(stored.body.responses.filter((r: any) => r.payload.note).length).toBe(6);
      expect(stored.body.responses.filter((r: any) => r.payload.size === "S").length).toBe(2);
      expect((await api("GET", "/api/forms/signup/versions")).body.version).toBe(2);
    });

    it("a mapped change needs no confirmation: an option renamed with formerly", async () => {
      const fields = [
        definition.fields[0],
        { id: "size", type: "select", options: [{ label: "Medium", formerly: ["M"] }, "L"] },
      ];
      const res = await api("PATCH", "/api/forms/signup", { body: { fields } });
      expect(res.status).toBe(200);
      const versions = await api("GET", "/api/forms/signup/versions");
      expect(versions.body.versions[0].changes).toEqual([
        {
          kind: "option_renamed",
          field: "size",
          option: "Medium",
          detail: 'option size "M" → "Medium" (formerly)',
          answers_affected: 4,
        },
      ]);
    });

    it("MCP update_form and deploy_form answer the plan with dry_run and refuse without confirm", async () => {
      const dry = await agent.call("update_form", {
        slug: "signup",
        patch: { fields: [definition.fields[0]] },
        dry_run: true,
      });
      expect(dry.isError).toBeFalsy();
      expect(dry.structuredContent.plan.changes).toEqual([
        { kind: "field_removed", field: "size", detail: "field size", answers_affected: 6 },
      ]);
      const refused = await agent.call("update_form", {
        slug: "signup",
        patch: { fields: [definition.fields[0]] },
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.code).toBe("plan_needs_confirmation");
      const content =
        "---\ntitle: Signup\nhumanness: false\nfields:\n  - id: email\n    type: email\n---\n";
      const planned = await agent.call("deploy_form", { slug: "signup", content, dry_run: true });
      expect(planned.structuredContent).toMatchObject({ result: "planned", slug: "signup" });
      expect(planned.structuredContent.plan.destructive).toBe(true);
      const blocked = await agent.call("deploy_form", { slug: "signup", content });
      expect(blocked.structuredContent.code).toBe("plan_needs_confirmation");
      const confirmed = await agent.call("deploy_form", { slug: "signup", content, confirm: true });
      expect(confirmed.structuredContent.result).toBe("updated");
    });

    it("the start-up deploy does not deploy a destructive file and logs why", async () => {
      await mkdir(join(s.repoDir, "forms/@me"), { recursive: true });
      const file =
        "---\ntitle: Signup\nslug: signup\nhumanness: false\nfields:\n  - id: other\n    type: text\n---\n";
      await writeFile(join(s.repoDir, "forms/@me/signup.md"), file);
      const before = (await api("GET", "/api/forms/signup/versions")).body.version;
      const result = await reconcileRepository(s.ctx);
      expect(result.invalid).toEqual(["forms/@me/signup.md"]);
      expect((await api("GET", "/api/forms/signup/versions")).body.version).toBe(before);
      expect(logged.join("\n")).toMatch(
        /signup\.md: Deploying signup would leave stored answers unreachable \(- field email: 6 answers retired\)/,
      );
    });

    it("through formerly, a renamed field's old answers and beacons count under its new id in stats and drop-off", async () => {
      const pulse = (fix: Record<string, unknown>) => ({
        title: "Pulse",
        slug: "pulse",
        humanness: false,
        fields: [
          { type: "text", label: "What to fix", ...fix },
          { id: "plan", type: "text" },
        ],
      });
      expect((await api("POST", "/api/forms", { body: pulse({ id: "fix" }) })).status).toBe(201);
      const reach = (field: string) =>
        api("POST", "/api/forms/pulse/events", { key: null, body: { type: "progress", field } });
      const send = async (fields: Record<string, string>) =>
        expect(
          (await api("POST", "/api/forms/pulse/submit", { key: null, body: { fields } })).status,
        ).toBe(201);
      for (let i = 0; i < 3; i++) {
        expect((await reach("fix")).status).toBe(204);
        await send({ fix: `old ${i}`, plan: "x" });
      }
      await reach("fix"); // one respondent left there
      await send({ plan: "only" });
      const renamed = pulse({ id: "fix_first", formerly: ["fix"] });
      expect((await api("PATCH", "/api/forms/pulse", { body: renamed })).status).toBe(200);
      await reach("fix_first");
      await send({ fix_first: "new", plan: "y" });
      // a page built before the rename (within the version grace) still says `fix`
      expect((await reach("fix")).status).toBe(204);
      const stats = await api("GET", "/api/forms/pulse/stats");
      expect(stats.body.dropoff).toEqual([
        { field: "fix_first", reached: 6, answered: 4 },
        { field: "plan", reached: 5, answered: 5 },
      ]);
      const report = await fetch(`${s.url}/api/forms/pulse/report?period=all`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      expect(await report.text()).toMatch(/\| What to fix \| 6 \| 4 \|/);
    });

    it("counts a list option among list answers, under a field's every id", async () => {
      const tags = (field: Record<string, unknown>) => ({
        title: "Tags",
        slug: "tags",
        humanness: false,
        fields: [{ type: "checkbox", ...field }],
      });
      const abc = { id: "tags", options: ["a", "b", "c"] };
      expect((await api("POST", "/api/forms", { body: tags(abc) })).status).toBe(201);
      for (const picked of [["a", "b"], ["b"], ["c"]]) {
        const body = { fields: { tags: picked } };
        expect((await api("POST", "/api/forms/tags/submit", { key: null, body })).status).toBe(201);
      }
      const next = tags({ id: "labels", formerly: ["tags"], options: ["a", "c"] });
      const plan = await api("POST", "/api/forms/tags/plan", { body: next });
      expect(plan.body.changes).toEqual([
        expect.objectContaining({ kind: "field_renamed", answers_affected: 3 }),
        expect.objectContaining({ kind: "option_removed", option: "b", answers_affected: 2 }),
      ]);
    });

    it("another account can neither plan nor read the versions of the form", async () => {
      const other = await s.otherKey();
      const plan = await api("POST", "/api/forms/signup/plan", { key: other, body: {} });
      expect(plan.status).toBe(403);
      expect((await api("GET", "/api/forms/signup/versions", { key: other })).status).toBe(403);
    });
  });
}
