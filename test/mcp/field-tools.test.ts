// SPEC §18 "One field at a time": update_field, remove_field and move_field (and their REST
// routes) change one field as one small edit of the author's file, through the plan's guard.
import { execFileSync } from "node:child_process";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const fixtures = new URL("../fixtures/authored/", import.meta.url).pathname;

for (const kind of DB_KINDS) {
  describe(`one field at a time (${kind})`, { timeout: 120_000 }, () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    let v2: Agent;
    let v1: Agent;
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", s.repoDir, "-c", "user.name=A", "-c", "user.email=a@x", ...args])
        .toString()
        .trim();
    const file = (slug: string) => readFile(join(s.repoDir, `forms/@me/${slug}.md`), "utf8");
    /** The last commit's diff: its hunks (git's default context) and changed lines. */
    const lastChange = () => {
      const diff = git("diff", "HEAD~1", "HEAD").split("\n");
      return {
        files: git("diff", "--name-only", "HEAD~1", "HEAD").split("\n"),
        hunks: diff.filter((l) => l.startsWith("@@")),
        lines: diff.filter((l) => /^[-+](?![-+]{2} )/.test(l)),
      };
    };
    const sorted = (text: string) => text.split("\n").sort();

    beforeAll(async () => {
      s = await startTestServer({ db: kind });
      api = client(s.url, s.apiKey);
      await cp(join(fixtures, "team-lunch.md"), join(s.repoDir, "forms/@me/team-lunch.md"));
      git("add", "-A");
      git("commit", "-qm", "A form written by hand");
      const put = await api("PUT", "/api/forms/team-lunch", {
        body: { markdown: await file("team-lunch") },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(201);
      const created = await api("POST", "/api/forms", {
        body: {
          title: "Pulse",
          slug: "pulse",
          humanness: false,
          fields: [
            { id: "email", type: "email" },
            { id: "mood", type: "rating" },
            { id: "budget", type: "number" },
            { id: "note", type: "text" },
          ],
        },
      });
      expect(created.status).toBe(201);
      for (let i = 0; i < 3; i++) {
        const fields = { email: `p${i}@example.com`, mood: 4, budget: 100 + i, note: `n${i}` };
        const res = await api("POST", "/api/forms/pulse/submit", { key: null, body: { fields } });
        expect(res.status).toBe(201);
      }
      v2 = await connectAgent("v2 SDK", s.url, s.apiKey);
      v1 = await connectAgent("v1 SDK", s.url, s.apiKey);
    }, 300_000);

    afterAll(async () => {
      await v2?.close();
      await v1?.close();
      await s?.close();
    });

    it("rewords one question in one call: one hunk of one line, a short answer", async () => {
      const answer = await v2.call("update_field", {
        slug: "team-lunch",
        field_id: "team_size",
        changes: { label: "How many of you are coming?" },
      });
      expect(answer.isError, JSON.stringify(answer.structuredContent)).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({
        slug: "team-lunch",
        version: 2,
        field: { id: "team_size", label: "How many of you are coming?", max: 12 },
        plan: { from_version: 1, destructive: false },
      });
      expect(answer.structuredContent).not.toHaveProperty("config");
      expect(JSON.stringify(answer.structuredContent).length).toBeLessThan(1_000);
      const change = lastChange();
      expect(change.files).toEqual(["forms/@me/team-lunch.md"]);
      expect(change.hunks).toHaveLength(1);
      expect(change.lines).toEqual([
        '-    label: "How many people are on your team?"',
        '+    label: "How many of you are coming?"',
      ]);
    });

    it("names an unknown field with the closest id, and bad changes by the argument sent", async () => {
      const unknown = await v1.call("update_field", {
        slug: "team-lunch",
        field_id: "team_sise",
        changes: { label: "x" },
      });
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent.code).toBe("not_found");
      expect(unknown.structuredContent.error).toContain('No field "team_sise"');
      expect(unknown.structuredContent.error).toContain('did you mean "team_size"?');
      const bad = await v1.call("update_field", {
        slug: "team-lunch",
        field_id: "team_size",
        changes: { min: "one", lable: "x" },
      });
      expect(bad.structuredContent.code).toBe("validation_failed");
      const paths = bad.structuredContent.details.map((d: { field: string }) => d.field);
      expect(paths.every((p: string) => p.startsWith("changes"))).toBe(true);
      expect(JSON.stringify(bad.structuredContent.details)).toContain("min");
      const rest = await api("PATCH", "/api/forms/team-lunch/fields/team_size", {
        body: { min: "one" },
      });
      expect(rest.status).toBe(400);
      expect(rest.body.details[0].field).toBe("min");
      const missing = await api("DELETE", "/api/forms/team-lunch/fields/nmae");
      expect(missing.status).toBe(404);
      expect(missing.body.error).toContain('did you mean "name"?');
      // a move that would put a rule before the field it reads is refused, naming that field
      const early = await v1.call("move_field", {
        slug: "team-lunch",
        field_id: "spice",
        before: "cuisine",
      });
      expect(early.structuredContent.code).toBe("validation_failed");
      expect(early.structuredContent.details[0].field).toContain("(spice).show_if");
    });

    it("moves a field: only the order changes, in one hunk", async () => {
      const before = await file("pulse");
      const dry = await v2.call("move_field", {
        slug: "pulse",
        field_id: "note",
        before: "budget",
        dry_run: true,
      });
      expect(dry.structuredContent.plan.changes).toEqual([
        expect.objectContaining({ kind: "field_moved", field: "note" }),
      ]);
      expect(await file("pulse")).toBe(before);
      const moved = await v2.call("move_field", { slug: "pulse", field_id: "note", after: "mood" });
      expect(moved.isError, JSON.stringify(moved.structuredContent)).toBeFalsy();
      expect(moved.structuredContent.version).toBe(2);
      const after = await file("pulse");
      expect(sorted(after)).toEqual(sorted(before));
      expect(after).not.toBe(before);
      expect(lastChange().hunks).toHaveLength(1);
      const form = await api("GET", "/api/forms/pulse");
      expect(form.body.config.fields.map((f: { id: string }) => f.id)).toEqual([
        "email",
        "mood",
        "note",
        "budget",
      ]);
      const back = await api("POST", "/api/forms/pulse/fields/note/move", {
        body: { after: "budget" },
      });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body).toMatchObject({ slug: "pulse", version: 3, field: { id: "note" } });
      expect(await file("pulse")).toBe(before);
      const both = await api("POST", "/api/forms/pulse/fields/note/move", {
        body: { before: "email", after: "mood" },
      });
      expect(both.status).toBe(400);
    });

    it("refuses to remove a field with answers until confirmed; the answers stay, retired", async () => {
      const refused = await v1.call("remove_field", { slug: "pulse", field_id: "budget" });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.code).toBe("plan_needs_confirmation");
      expect(refused.structuredContent.details.changes).toEqual([
        expect.objectContaining({ kind: "field_removed", field: "budget", answers_affected: 3 }),
      ]);
      const rest = await api("DELETE", "/api/forms/pulse/fields/budget");
      expect(rest.status).toBe(409);
      expect(rest.body.details.destructive).toBe(true);
      const head = git("rev-parse", "HEAD");
      const confirmed = await v2.call("remove_field", {
        slug: "pulse",
        field_id: "budget",
        confirm: true,
      });
      expect(confirmed.isError, JSON.stringify(confirmed.structuredContent)).toBeFalsy();
      expect(confirmed.structuredContent).toMatchObject({
        version: 4,
        field: { id: "budget", type: "number" },
      });
      expect(git("rev-parse", "HEAD")).not.toBe(head);
      const change = lastChange();
      expect(change.hunks).toHaveLength(1);
      expect(change.lines.every((l) => l.startsWith("-"))).toBe(true);
      const stored = await s.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from responses where payload ? 'budget'",
      );
      expect(stored[0]!.n).toBe(3);
      const csv = await fetch(`${s.url}/api/forms/pulse/responses/export?format=csv`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      const header = (await csv.text()).split("\n")[0]!;
      expect(header).toContain("budget (retired)");
    });

    it("answers the same over REST: PATCH a field, and a dry run that changes nothing", async () => {
      const head = git("rev-parse", "HEAD");
      const dry = await api("PATCH", "/api/forms/pulse/fields/mood?dry_run=true", {
        body: { label: "Your mood" },
      });
      expect(dry.status, JSON.stringify(dry.body)).toBe(200);
      expect(dry.body).toMatchObject({ slug: "pulse", version: 4, field: { label: "Your mood" } });
      expect(git("rev-parse", "HEAD")).toBe(head);
      const done = await api("PATCH", "/api/forms/pulse/fields/mood", {
        body: { label: "Your mood" },
      });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ version: 5, plan: { destructive: false } });
      expect(lastChange().hunks).toHaveLength(1);
      const mcp = await v1.call("update_field", {
        slug: "pulse",
        field_id: "mood",
        changes: { label: "Your mood" },
      });
      // the same change again changes nothing and commits nothing
      expect(mcp.structuredContent).toMatchObject({ version: 5, plan: { changes: [] } });
      expect(git("rev-parse", "HEAD")).not.toBe(head);
      expect(git("log", "-1", "--format=%s")).toContain("mood");
    });
  });
}
