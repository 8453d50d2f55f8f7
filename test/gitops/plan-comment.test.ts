import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKER } from "../../cli/lib/plan-comment.ts";
import { deployWorkflow, VALIDATE_WORKFLOW } from "../../cli/lib/scaffold.ts";
import { startGithubFake } from "../fakes/github.ts";
import { runFormdown } from "../helpers/cli.ts";

// SPEC §16 "Pull requests": `formdown plan --json` output (written here by hand, in the agreed
// shape) becomes the job summary and one pull-request comment that later pushes update in place.
let github: Awaited<ReturnType<typeof startGithubFake>>;
let dir: string;

const plan = (destructive: boolean) => ({
  plans: [
    {
      slug: "signup",
      from_version: 3,
      changes: [
        {
          kind: "field_renamed",
          field: "fix_first",
          detail: "fix → fix_first (formerly)",
          answers_affected: 8,
        },
        ...(destructive
          ? [
              {
                kind: "field_removed",
                field: "budget",
                detail: "budget: answers retired <b>",
                answers_affected: 312,
              },
            ]
          : []),
      ],
      destructive,
      summary: destructive ? "2 changes, 1 destructive" : "1 change",
    },
  ],
});

beforeAll(async () => {
  github = await startGithubFake("acme", "forms");
  dir = await mkdtemp(join(tmpdir(), "formdown-plan-"));
  await writeFile(
    join(dir, "event.json"),
    JSON.stringify({ pull_request: { number: 7, labels: [] } }),
  );
});
afterAll(async () => {
  await github?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function planComment(name: string, body: unknown, tests?: unknown) {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(body));
  const summary = join(dir, `${name}.summary.md`);
  const extra: string[] = [];
  if (tests !== undefined) {
    await writeFile(join(dir, `${name}.tests.json`), JSON.stringify(tests));
    extra.push("--tests", join(dir, `${name}.tests.json`));
  }
  const run = await runFormdown(["plan-comment", file, ...extra], {
    env: {
      GITHUB_TOKEN: "ghp_test_token",
      GITHUB_REPOSITORY: "acme/forms",
      GITHUB_EVENT_PATH: join(dir, "event.json"),
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_API_URL: github.url,
    },
  });
  return { ...run, summary: await readFile(summary, "utf8").catch(() => "") };
}

const writes = () => github.calls.filter((c) => c.method === "POST" || c.method === "PATCH");

describe("formdown plan-comment", () => {
  it("creates one comment, then updates that same comment on the next push", async () => {
    const first = await planComment("first", plan(false));
    expect(first.code, first.stderr).toBe(0);
    expect(writes().map((c) => [c.method, c.path])).toEqual([
      ["POST", "/repos/acme/forms/issues/7/comments"],
    ]);
    const [created] = [...github.comments.values()];
    expect(created!.body).toContain(MARKER);
    expect(created!.body).toContain(
      "~ field_renamed fix_first: fix → fix_first (formerly) (8 answers)",
    );
    expect(first.summary).toBe(created!.body);

    const second = await planComment("second", {
      plans: [{ ...plan(false).plans[0], summary: "pushed again" }],
    });
    expect(second.code, second.stderr).toBe(0);
    expect(writes().map((c) => [c.method, c.path])).toEqual([
      ["POST", "/repos/acme/forms/issues/7/comments"],
      ["PATCH", `/repos/acme/forms/issues/comments/${created!.id}`],
    ]);
    expect(github.comments.size).toBe(1);
    expect(created!.body).toContain("pushed again");
  });

  it("fails the check on a destructive plan without the label, and passes once it is added", async () => {
    const refused = await planComment("destructive", plan(true));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("formdown:confirm");
    const [body] = [...github.comments.values()].map((c) => c.body);
    expect(body).toContain("- field_removed budget: budget: answers retired <b> (312 answers)");
    expect(body).toContain("**This plan is destructive**");
    expect(github.comments.size).toBe(1);

    github.labels.set(7, ["formdown:confirm"]);
    const confirmed = await planComment("confirmed", plan(true));
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect([...github.comments.values()][0]!.body).toContain("**Destructive changes confirmed**");
    expect(github.comments.size).toBe(1);
  });

  it("shows the forms' logic tests beside the plan, each failing case at file:line (SPEC §24)", async () => {
    const run = await planComment("tested", plan(false), [
      {
        file: "forms/@me/quote.md",
        errors: [],
        results: [
          { name: "a", passed: true, file: "forms/@me/quote.test.yaml", line: 2, failures: [] },
        ],
        passed: 1,
        failed: 0,
      },
      {
        file: "forms/@me/signup.md",
        errors: [],
        results: [
          {
            name: "vip <b>",
            passed: false,
            file: "forms/@me/signup.test.yaml",
            line: 12,
            failures: [{ path: "ending", expected: "vip", got: "default" }],
          },
        ],
        passed: 0,
        failed: 1,
      },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toContain("### Logic tests");
    expect(run.summary).toContain("✅ forms/@me/quote.md: 1 of 1 cases pass");
    expect(run.summary).toContain("❌ forms/@me/signup.md: 0 of 1 cases pass");
    expect(run.summary).toContain(
      '- forms/@me/signup.test.yaml:12: vip <b>: ending: expected "vip", got "default"',
    );
    // an older CLI that printed no test report: the plan alone
    const older = await planComment("older", plan(false), "not json");
    expect(older.code).toBe(0);
    expect(older.summary).not.toContain("Logic tests");
  });

  it("refuses input that is not a plan with a clear message", async () => {
    const run = await planComment("broken", { nothing: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not formdown plan --json output");
  });

  it("is what formdown init's workflows run: plan + comment on pull requests, deploy --since on main", async () => {
    // the base branch's CLI (SPEC §23; test/security/pr-workflow.test.ts runs the step)
    expect(VALIDATE_WORKFLOW).toContain(
      `node "$cli" plan --json "\${files[@]}" > "$RUNNER_TEMP/plan.json"`,
    );
    expect(VALIDATE_WORKFLOW).toContain('node "$cli" plan-comment "$RUNNER_TEMP/plan.json"');
    expect(VALIDATE_WORKFLOW).toMatch(/pull-requests: write/);
    expect(VALIDATE_WORKFLOW).toMatch(/types: \[.*labeled.*\]/);
    expect(deployWorkflow()).toContain(
      `.formdown/formdown.mjs deploy --since "\${{ github.event.before }}" --check`,
    );
    const ci = await readFile(new URL("../../.github/workflows/ci.yml", import.meta.url), "utf8");
    expect(ci).toContain('node "$cli" plan-comment "$RUNNER_TEMP/plan.json"');
  });
});
