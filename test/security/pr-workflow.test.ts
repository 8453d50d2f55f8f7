// SPEC §23 / issue 41 item 7: the pull-request workflows (`formdown init`'s and the project's own)
// never run the pull request's code where a secret is; they plan with a read-only key and the CLI
// of the base branch, and hand every file name over as one quoted argument.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VALIDATE_WORKFLOW } from "../../cli/lib/scaffold.ts";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
}

async function ciText(): Promise<string> {
  return readFile(new URL("../../.github/workflows/ci.yml", import.meta.url), "utf8");
}
async function scaffolded(): Promise<string> {
  return VALIDATE_WORKFLOW;
}
const jobsOf = (text: string) => (parse(text) as { jobs: Record<string, Job> }).jobs;
const BASE_REF = /github\.event\.pull_request\.base\.sha/;

/**
 * The commands of a job that may run code the pull request wrote: any package manager or a
 * `node` of a file in a checkout of the pull request (a checkout not pinned to the base commit).
 * The CLI taken from the base commit (`"$cli"`, `"$GITHUB_WORKSPACE/…"` of a base checkout) is not.
 */
function prCodeRuns(job: Job): string[] {
  const prCheckouts = job.steps.filter(
    (s) => s.uses?.startsWith("actions/checkout") && !BASE_REF.test(String(s.with?.ref ?? "")),
  );
  const prDirs = prCheckouts.map((s) => String(s.with?.path ?? "."));
  const runs: string[] = [];
  for (const step of job.steps) {
    if (!step.run || !prDirs.includes(step["working-directory"] ?? ".")) continue;
    for (const line of step.run.split("\n"))
      if (/\b(npm|npx|yarn|pnpm)\b|\bnode\s+(?!"\$cli"|"\$GITHUB_WORKSPACE\/)/.test(line))
        runs.push(line.trim());
  }
  return runs;
}

const holdsSecret = (job: Job) => JSON.stringify(job).includes("secrets.");

describe("pull-request workflows hold no secret where the pull request's code runs", () => {
  it.each([
    ["formdown init's formdown-validate.yml", scaffolded],
    [".github/workflows/ci.yml", ciText],
  ])("%s: a job with a secret runs only the base branch's code", async (_name, text) => {
    const jobs = jobsOf(await text());
    const withSecrets = Object.entries(jobs).filter(([, job]) => holdsSecret(job));
    expect(withSecrets.length).toBeGreaterThan(0);
    for (const [name, job] of withSecrets) expect(prCodeRuns(job), name).toEqual([]);
    // and the key it holds is the read-only one
    expect(await text()).not.toContain("secrets.FORMDOWN_API_KEY");
    expect(await text()).toContain("secrets.FORMDOWN_READ_KEY");
  });
});

/** The step that plans, with its job's and its own environment. */
function planStep(text: string): { run: string; env: Record<string, string> } {
  for (const job of Object.values(jobsOf(text)))
    for (const step of job.steps)
      if (step.run?.includes("plan --json")) return { run: step.run, env: { ...job.env } };
  throw new Error("no plan step");
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=A", "-c", "user.email=a@x", ...args], { cwd })
    .toString()
    .trim();

// a CLI that records its arguments, and prints an empty plan for `plan`
const RECORDER = (who: string) =>
  `import { appendFileSync } from "node:fs";\nappendFileSync(process.env.LOG, JSON.stringify(["${who}", ...process.argv.slice(2)]) + "\\n");\nif (process.argv[2] === "plan") console.log('{"plans":[]}');\n`;
const HOSTILE_NAMES = ["forms/@me/a b.md", "forms/@me/--url=https:evil.md", "forms/@me/*.md"];

/**
 * A repository whose base commit has the recording CLI, and a pull request that replaces the CLI
 * with its own and adds form files with hostile names. Answers the repository and the base sha.
 */
async function pullRequest(dir: string): Promise<string> {
  await mkdir(join(dir, ".formdown"), { recursive: true });
  await mkdir(join(dir, "forms/@me"), { recursive: true });
  git(dir, "init", "-q");
  await writeFile(join(dir, ".formdown/formdown.mjs"), RECORDER("base"));
  await writeFile(join(dir, "forms/@me/keep.md"), "---\ntitle: K\n---\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const base = git(dir, "rev-parse", "HEAD");
  await writeFile(join(dir, ".formdown/formdown.mjs"), RECORDER("pull request"));
  for (const name of [...HOSTILE_NAMES, "forms/@me/keep.md"])
    await writeFile(join(dir, name), "---\ntitle: X\n---\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "pull request");
  return base;
}

async function runPlanStep(text: string, layout: "vendored" | "project") {
  const root = await mkdtemp(join(tmpdir(), "formdown-pr-"));
  const [temp, log] = [join(root, "tmp"), join(root, "log")];
  await mkdir(temp);
  // the project's workflow runs its base checkout's cli/, with the pull request in pr/
  const repo = layout === "project" ? join(root, "pr") : root;
  if (layout === "project") {
    await mkdir(join(root, "cli"));
    await writeFile(join(root, "cli/formdown.mjs"), RECORDER("base"));
  }
  const base = await pullRequest(repo);
  const step = planStep(text);
  const result = spawnSync("bash", ["-e", "-c", step.run], {
    cwd: repo,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: `${process.execPath.replace(/\/node$/, "")}:${process.env.PATH}`,
      HOME: root,
      npm_config_offline: "true",
      LOG: log,
      BASE: base,
      RUNNER_TEMP: temp,
      GITHUB_WORKSPACE: root,
      FORMDOWN_URL: "https://forms.example.com",
      FORMDOWN_API_KEY: "fd_secret",
      GITHUB_TOKEN: "gh_secret",
    },
  });
  const calls = (await readFile(log, "utf8").catch(() => ""))
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as string[]);
  return { result, calls };
}

describe("the plan step of a pull request", () => {
  it.each([
    ["formdown init's formdown-validate.yml", scaffolded, "vendored"],
    [".github/workflows/ci.yml", ciText, "project"],
  ] as const)(
    "%s runs the base branch's CLI with each changed file as one argument",
    async (_name, text, layout) => {
      const { result, calls } = await runPlanStep(await text(), layout);
      expect(calls.map((c) => c[0])).not.toContain("pull request");
      const plan = calls.find((c) => c[1] === "plan");
      expect(plan, `${result.stdout}${result.stderr}`).toBeDefined();
      expect(plan![0]).toBe("base");
      expect(plan!.slice(2, 3)).toEqual(["--json"]);
      expect(plan!.slice(3).sort()).toEqual([...HOSTILE_NAMES, "forms/@me/keep.md"].sort());
      expect(calls.find((c) => c[1] === "plan-comment")?.[0]).toBe("base");
      expect(result.status, result.stderr).toBe(0);
    },
  );
});
