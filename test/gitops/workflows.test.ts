import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { deployWorkflow, VALIDATE_WORKFLOW } from "../../cli/lib/scaffold.ts";

const run = promisify(execFile);
const root = new URL("../../", import.meta.url).pathname;
const validator = join(root, "node_modules/@action-validator/cli/cli.mjs");

async function exitCode(
  file: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("GitOps workflows", () => {
  it.each(["ci.yml", "deploy.yml"])("%s is a valid GitHub Actions workflow", async (name) => {
    expect((await exitCode(validator, [join(root, ".github/workflows", name)])).code).toBe(0);
  });

  it.each([
    ["formdown-validate.yml", VALIDATE_WORKFLOW],
    ["formdown-deploy.yml", deployWorkflow()],
  ])("formdown init's %s is a valid GitHub Actions workflow", async (name, text) => {
    const file = join(await mkdtemp(join(tmpdir(), "formdown-wf-")), name);
    await writeFile(file, text);
    const result = await exitCode(validator, [file]);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  });

  it("the schema check catches a broken workflow", async () => {
    const dir = await mkdtemp(join(tmpdir(), "formdown-wf-"));
    const bad = join(dir, "bad.yml");
    await writeFile(bad, "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    stepz: []\n");
    const result = await exitCode(validator, [bad]);
    expect(result.code).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toContain(
      "Additional property 'stepz' is not allowed",
    );
  });

  it("turns validate --json output into annotations at file:line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "formdown-wf-"));
    const form = join(dir, "bad.md");
    await writeFile(
      form,
      "---\ntitle: X\nslug: x\nfields:\n  - id: a\n    type: text\n    show_if: { field: b, op: eq, value: 1 }\n  - id: b\n    type: text\n---\n",
    );
    const validated = await exitCode(join(root, "cli/formdown.mjs"), ["validate", "--json", form]);
    expect(validated.code).toBe(1);
    const report = join(dir, "validation.json");
    await writeFile(report, validated.stdout);
    const annotated = await exitCode(join(root, ".github/scripts/annotate.mjs"), [report]);
    expect(annotated.code).toBe(1);
    expect(annotated.stdout.trim().split("\n")[0]).toBe(
      `::error file=${form},line=7,title=Invalid form::fields[0].show_if.field: refers to "b", which comes later`,
    );
  });
});
