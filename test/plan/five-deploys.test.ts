// SPEC §16 end to end: a form with 50 responses goes through five deploys (a rename and an option
// rename mapped with `formerly`, a removed field refused then confirmed, a type change, a new
// required field). Before each, `formdown plan` names the exact counts; after each, the CSV
// export holds every answer ever given (cell by cell) and the report counts them under the live
// ids. A page built before the new required field still submits within the grace.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseReport } from "../../functions/reports/report.ts";
import { accountByHandler } from "../../functions/services/accounts.ts";
import { cellText } from "../../src/core/csv.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HEAD = "---\ntitle: Q4 product pulse\nslug: pulse\nhumanness: false\nfields:\n";
const FIX = "  - id: fix\n    type: text\n    label: What should we fix first?\n";
const FIX_FIRST =
  "  - id: fix_first\n    formerly: [fix]\n    type: text\n    label: What should we fix first?\n";
const PLAN = "  - id: plan\n    type: radio\n    options: [Free, Pro, Team]\n";
const PLAN_RENAMED =
  "  - id: plan\n    type: radio\n    options:\n      - label: Starter\n        formerly: [Free]\n      - Pro\n      - Team\n";
const BUDGET = "  - id: budget\n    type: number\n";
const SCORE_TEXT = "  - id: score\n    type: text\n";
const SCORE_NUMBER = "  - id: score\n    type: number\n";
const TAGS = "  - id: tags\n    type: checkbox\n    options: [a, b, c]\n";
const COMPANY = "  - id: company\n    type: text\n    required: true\n";
const file = (...fields: string[]) => `${HEAD}${fields.join("")}---\n`;

/** The file at each stage: 1 is the first deploy, 2–6 the five changes. */
const STAGES: Record<number, string> = {
  1: file(FIX, PLAN, BUDGET, SCORE_TEXT, TAGS),
  2: file(FIX_FIRST, PLAN, BUDGET, SCORE_TEXT, TAGS),
  3: file(FIX_FIRST, PLAN_RENAMED, BUDGET, SCORE_TEXT, TAGS),
  4: file(FIX_FIRST, PLAN_RENAMED, SCORE_TEXT, TAGS),
  5: file(FIX_FIRST, PLAN_RENAMED, SCORE_NUMBER, TAGS),
  6: file(FIX_FIRST, PLAN_RENAMED, SCORE_NUMBER, TAGS, COMPANY),
};

interface Given {
  id: string;
  answers: Record<string, unknown>;
}

/** The answers of respondent `i` at a stage, under that stage's ids (some left unanswered). */
function answersAt(stage: number, i: number): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  if (i % 3 !== 0) a[stage >= 2 ? "fix_first" : "fix"] = `fix ${i}, "quoted"`;
  const plans = stage >= 3 ? ["Starter", "Pro", "Team"] : ["Free", "Pro", "Team"];
  if (i % 4 !== 0) a.plan = plans[i % 3];
  if (stage < 4 && i % 2 === 0) a.budget = i * 10;
  if (i % 5 !== 0) a.score = stage >= 5 ? (i % 5) + 1 : String((i % 5) + 1);
  if (i % 2 === 1) a.tags = i % 3 === 0 ? ["a", "c"] : ["b"];
  if (stage >= 6) a.company = `Co ${i}`;
  return a;
}

/** Where an answer given under `id` reads at `stage`, and how its cell reads. */
function expected(stage: number, id: string, value: unknown): [string, string] {
  let column = id;
  if (id === "fix" && stage >= 2) column = "fix_first";
  if (id === "budget" && stage >= 4) column = "budget (retired)";
  const v = id === "plan" && stage >= 3 && value === "Free" ? "Starter" : value;
  return [column, cellText(v)];
}

for (const kind of DB_KINDS) {
  // many CLI runs per step: generous deadlines for a busy machine
  describe(`five deploys of a live form (${kind})`, { timeout: 300_000 }, () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    let work: string;
    const given: Given[] = [];

    const cli = (...args: string[]) =>
      runFormdown(args, {
        env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey, HOME: work },
        cwd: work,
      });
    const write = (stage: number) =>
      writeFile(join(work, "forms/@me/pulse.md"), STAGES[stage]!, "utf8");

    async function submit(stage: number, count: number, from: number) {
      for (let i = from; i < from + count; i++) {
        const answers = answersAt(stage, i);
        const res = await api("POST", "/api/forms/pulse/submit", {
          key: null,
          body: { fields: answers },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        given.push({ id: res.body.response_id, answers });
      }
    }

    const answered = (id: string, value?: unknown) =>
      given.filter((g) =>
        value === undefined ? g.answers[id] !== undefined : g.answers[id] === value,
      ).length;

    /** `formdown plan` prints exactly these lines for the file of `stage`. */
    async function expectPlan(stage: number, lines: string[]) {
      await write(stage);
      const run = await cli("plan", "forms/@me/pulse.md");
      expect(run.code, run.stderr).toBe(0);
      for (const line of lines) expect(run.stdout).toContain(`  ${line}\n`);
      const json = JSON.parse((await cli("plan", "forms/@me/pulse.md", "--json")).stdout);
      expect(json.plans).toHaveLength(1);
      expect(json.plans[0].slug).toBe("pulse");
      return json.plans[0] as { destructive: boolean; from_version: number };
    }

    /** Every answer ever given is in its cell of the CSV export. */
    async function expectCsvHoldsEverything(stage: number) {
      const res = await fetch(`${s.url}/api/forms/pulse/responses/export?format=csv`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      expect(res.status).toBe(200);
      const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(given.length);
      const byId = new Map(rows.map((r) => [r.id, r]));
      let cells = 0;
      for (const g of given) {
        const row = byId.get(g.id)!;
        expect(row, g.id).toBeDefined();
        for (const [id, value] of Object.entries(g.answers)) {
          const [column, text] = expected(stage, id, value);
          expect(row[column], `${g.id} ${column}`).toBe(text);
          cells++;
        }
      }
      expect(cells).toBeGreaterThan(given.length);
      return Object.keys(rows[0]!);
    }

    async function report() {
      const account = (await accountByHandler(s.ctx, "me"))!;
      const r = await responseReport(s.ctx, account, "pulse", "all");
      const fields = new Map(
        (r.summary.fields as { id: string; answered: number; options?: unknown[] }[]).map((f) => [
          f.id,
          f,
        ]),
      );
      return { fields, markdown: r.markdown };
    }

    beforeAll(async () => {
      s = await startTestServer({ db: kind });
      api = client(s.url, s.apiKey);
      work = await mkdtemp(join(tmpdir(), "formdown-five-"));
      await mkdir(join(work, "forms/@me"), { recursive: true });
      await write(1);
      const first = await cli("deploy", "forms/@me/pulse.md");
      expect(first.code, first.stderr).toBe(0);
      await submit(1, 50, 0);
    }, 240_000);

    afterAll(async () => {
      await s?.close();
    });

    it("1: renames fix to fix_first with formerly: the plan counts the answers that follow", async () => {
      const plan = await expectPlan(2, [
        `~ field fix → fix_first (formerly): ${answered("fix")} answers follow`,
      ]);
      expect(plan).toMatchObject({ destructive: false, from_version: 1 });
      const run = await cli("deploy", "forms/@me/pulse.md");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/updated\s+pulse/);
      await submit(2, 5, 50);
      const columns = await expectCsvHoldsEverything(2);
      expect(columns).not.toContain("fix");
      const { fields } = await report();
      expect(fields.get("fix_first")!.answered).toBe(answered("fix") + answered("fix_first"));
    });

    it("2: renames option Free to Starter: old answers count as Starter", async () => {
      await expectPlan(3, [
        `~ option plan "Free" → "Starter" (formerly): ${answered("plan", "Free")} answers follow`,
      ]);
      expect((await cli("deploy", "forms/@me/pulse.md")).code).toBe(0);
      await submit(3, 5, 55);
      await expectCsvHoldsEverything(3);
      const plan = (await report()).fields.get("plan") as unknown as {
        options: { option: string; count: number }[];
      };
      expect(plan.options.find((o) => o.option === "Starter")!.count).toBe(
        answered("plan", "Free") + answered("plan", "Starter"),
      );
    });

    it("3: refuses to remove budget until confirmed; its answers stay, retired", async () => {
      const budget = answered("budget");
      expect(budget).toBeGreaterThan(0);
      const plan = await expectPlan(4, [`- field budget: ${budget} answers retired`]);
      expect(plan.destructive).toBe(true);
      const refused = await cli("deploy", "forms/@me/pulse.md");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("plan_needs_confirmation");
      expect(refused.stderr).toContain(`- field budget: ${budget} answers retired`);
      const rest = await api("PUT", "/api/forms/pulse", { body: { markdown: STAGES[4] } });
      expect(rest.status).toBe(409);
      expect(rest.body.code).toBe("plan_needs_confirmation");
      expect(rest.body.details.changes[0]).toMatchObject({
        kind: "field_removed",
        answers_affected: budget,
      });
      expect((await api("GET", "/api/forms/pulse/versions")).body.version).toBe(3);
      const confirmed = await cli("deploy", "forms/@me/pulse.md", "--confirm");
      expect(confirmed.code, confirmed.stderr).toBe(0);
      await submit(4, 5, 60);
      const columns = await expectCsvHoldsEverything(4);
      // retired columns come after the live ones
      expect(columns.indexOf("budget (retired)")).toBeGreaterThan(columns.indexOf("tags"));
      const { markdown } = await report();
      expect(markdown).toContain("## From earlier versions");
      expect(markdown).toMatch(new RegExp(`\\| budget \\|  \\| ${budget} \\|`));
      const html = await fetch(`${s.url}/api/forms/pulse/report?period=all&format=html`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      const page = await html.text();
      expect(page).toContain("From earlier versions</h2>");
      expect(page).toContain(`<td>budget</td><td></td><td>${budget}</td>`);
    });

    it("4: changes score from text to number (confirmed): every earlier answer still exported", async () => {
      await expectPlan(5, [
        `~ field score: text → number (earlier answers do not fit): ${answered("score")} answers kept as given`,
      ]);
      expect((await cli("deploy", "forms/@me/pulse.md")).code).toBe(1);
      expect((await cli("deploy", "forms/@me/pulse.md", "--confirm")).code).toBe(0);
      await submit(5, 5, 65);
      await expectCsvHoldsEverything(5);
    });

    it("5: adds a required field; a page built before it still submits within the grace", async () => {
      const before = (await api("GET", "/api/forms/pulse/versions")).body.version as number;
      expect(before).toBe(5);
      await expectPlan(6, ["+ field company (text, required)"]);
      expect((await cli("deploy", "forms/@me/pulse.md")).code).toBe(0);
      // the body the page built from version 5 sends: its answers and its version
      const old = answersAt(5, 70);
      const late = await api("POST", "/api/forms/pulse/submit", {
        key: null,
        body: { fields: old, version: before },
      });
      expect(late.status, JSON.stringify(late.body)).toBe(201);
      given.push({ id: late.body.response_id, answers: old });
      const record = await api("GET", `/api/forms/pulse/responses/${late.body.response_id}`);
      expect(record.body.version).toBe(5);
      // without a version the live one applies; an unknown one is a changed form
      const live = await api("POST", "/api/forms/pulse/submit", {
        key: null,
        body: { fields: old },
      });
      expect(live.status).toBe(400);
      expect(live.body.details).toEqual([{ field: "company", message: expect.any(String) }]);
      const unknown = await api("POST", "/api/forms/pulse/submit", {
        key: null,
        body: { fields: old, version: 99 },
      });
      expect(unknown.status).toBe(409);
      expect(unknown.body.code).toBe("form_changed");
      await submit(6, 5, 71);
      await expectCsvHoldsEverything(6);
      const versions = (await api("GET", "/api/forms/pulse/versions")).body.versions as {
        version: number;
        changes: { kind: string }[];
      }[];
      expect(versions.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
      expect(versions[0]!.changes.map((c) => c.kind)).toEqual(["field_added"]);
      expect(versions[2]!.changes.map((c) => c.kind)).toEqual(["field_removed"]);
    });

    it("JSON and Markdown exports carry the same answers under the live ids (retired under theirs)", async () => {
      const res = await fetch(`${s.url}/api/forms/pulse/responses/export?format=json`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      const records = (await res.json()) as { id: string; payload: Record<string, unknown> }[];
      const byId = new Map(records.map((r) => [r.id, r.payload]));
      for (const g of given)
        for (const [id, value] of Object.entries(g.answers)) {
          const [column, text] = expected(6, id, value);
          expect(cellText(byId.get(g.id)![column.replace(" (retired)", "")])).toBe(text);
        }
      const md = await (
        await fetch(`${s.url}/api/forms/pulse/responses/export?format=markdown`, {
          headers: { authorization: `Bearer ${s.apiKey}` },
        })
      ).text();
      expect(md.split("\n")[0]).toMatch(
        /\| fix_first \| plan \| score \| tags \| company \| budget \|$/,
      );
    });
  });
}
