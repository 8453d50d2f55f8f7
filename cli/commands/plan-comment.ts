import { appendFile, readFile } from "node:fs/promises";
import type { Octokit } from "@octokit/rest";
import type { CAC } from "cac";
import { CliError, usage } from "../lib/api.ts";
import { out, say } from "../lib/output.ts";
import { CONFIRM_LABEL, MARKER, readPlans, readTests, renderPlans } from "../lib/plan-comment.ts";

/** The pull request a workflow runs for: its number and the labels its event carried. */
async function pullRequest(eventPath: string | undefined) {
  if (!eventPath) return null;
  const event = JSON.parse(await readFile(eventPath, "utf8")) as {
    pull_request?: { number: number; labels?: { name: string }[] };
    number?: number;
  };
  const pr = event.pull_request;
  return pr ? { number: pr.number, labels: (pr.labels ?? []).map((l) => l.name) } : null;
}

async function readInput(file: string | undefined): Promise<string> {
  if (file && file !== "-")
    return readFile(file, "utf8").catch(() => Promise.reject(usage(`cannot read ${file}`)));
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Writes or updates the one plan comment (found by its marker) and answers the pull request's
 * current labels, which may have changed since the event was sent.
 */
async function comment(octokit: Octokit, repository: string, number: number, body: string) {
  const [owner = "", repo = ""] = repository.split("/");
  const comments = await octokit.paginate(octokit.issues.listComments, {
    owner,
    repo,
    issue_number: number,
    per_page: 100,
  });
  const mine = comments.find((c) => c.body?.includes(MARKER));
  if (mine) await octokit.issues.updateComment({ owner, repo, comment_id: mine.id, body });
  else await octokit.issues.createComment({ owner, repo, issue_number: number, body });
  const labels = await octokit.issues.listLabelsOnIssue({ owner, repo, issue_number: number });
  return { updated: Boolean(mine), labels: labels.data.map((l) => l.name) };
}

export function registerPlanComment(cli: CAC): void {
  cli
    .command(
      "plan-comment [plan]",
      "In a pull-request workflow: put `formdown plan --json` output (a file, or stdin) in the job summary and one PR comment; fail on a destructive plan unless the PR has the label formdown:confirm",
    )
    .option("--tests <file>", "formdown test --json output, shown beside the plan")
    .example("formdown plan --json forms/@me/*.md > plan.json && formdown plan-comment plan.json")
    .example(
      "formdown test --json > tests.json; formdown plan-comment plan.json --tests tests.json",
    )
    .action(async (file: string | undefined, opts: { tests?: string }) => {
      const env = process.env;
      const tests = opts.tests ? readTests(await readFile(opts.tests, "utf8").catch(() => "")) : [];
      let plans: ReturnType<typeof readPlans>;
      try {
        plans = readPlans(JSON.parse(await readInput(file)));
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(
          `the plan is not formdown plan --json output: ${(error as Error).message}`,
          "invalid_plan",
        );
      }
      const pr = await pullRequest(env.GITHUB_EVENT_PATH);
      let labels = pr?.labels ?? [];
      let body = renderPlans(plans, labels.includes(CONFIRM_LABEL), tests);
      if (pr && env.GITHUB_TOKEN && env.GITHUB_REPOSITORY) {
        const { Octokit } = await import("@octokit/rest");
        const octokit = new Octokit({
          auth: env.GITHUB_TOKEN,
          ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
        });
        const done = await comment(octokit, env.GITHUB_REPOSITORY, pr.number, body);
        // a label added after the event: the comment is rewritten to say it is confirmed
        if (done.labels.includes(CONFIRM_LABEL) !== labels.includes(CONFIRM_LABEL)) {
          labels = done.labels;
          body = renderPlans(plans, labels.includes(CONFIRM_LABEL), tests);
          await comment(octokit, env.GITHUB_REPOSITORY, pr.number, body);
        }
        say(`${done.updated ? "updated" : "created"} the plan comment on #${pr.number}`);
      } else if (pr) say("no GITHUB_TOKEN/GITHUB_REPOSITORY: the pull request gets no comment");
      if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, body);
      else out(body);
      if (plans.some((p) => p.destructive) && !labels.includes(CONFIRM_LABEL))
        throw new CliError(
          `the plan is destructive: map the old answers with formerly, or add the label ${CONFIRM_LABEL} to the pull request`,
          "plan_needs_confirmation",
        );
    });
}
