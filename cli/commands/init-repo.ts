import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { formSchema } from "../../src/core/schema.ts";
import { CliError, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { say } from "../lib/output.ts";
import {
  deployWorkflow,
  EXAMPLE_FORM,
  GITIGNORE,
  PACKAGE_JSON,
  README_SNIPPET,
  VALIDATE_WORKFLOW,
} from "../lib/scaffold.ts";
import { fetchBundle, runningBundle, VENDORED, writeBundle } from "../lib/vendor.ts";

/**
 * `formdown init` with no slug: a forms-only repository in the current directory. Files that
 * exist already are left alone (and named), so running it twice is harmless. The CLI itself is
 * vendored from the server (`GET /cli/formdown.mjs`) or, when that is out of reach and this is
 * already the one-file CLI, copied from itself.
 */
export async function initRepository(handler: string, url?: string): Promise<void> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(handler))
    throw usage("--handler must be lowercase letters, digits and hyphens");
  const schema = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" });
  const files: [string, string][] = [
    [`forms/@${handler}/hello.md`, EXAMPLE_FORM(handler)],
    ["formdown.schema.json", `${JSON.stringify(schema, null, 2)}\n`],
    [".github/workflows/formdown-validate.yml", VALIDATE_WORKFLOW],
    [".github/workflows/formdown-deploy.yml", deployWorkflow(defaultBranch())],
    ["package.json", PACKAGE_JSON],
    [".gitignore", GITIGNORE],
    ["README.md", `# Forms\n\n${README_SNIPPET}`],
  ];
  if (!existsSync(VENDORED)) {
    await writeBundle(VENDORED, await vendoredText(url));
    say(`  created ${VENDORED}`);
  } else say(`  kept    ${VENDORED} (exists; \`formdown self-update\` replaces it)`);
  for (const [path, text] of files) {
    if (existsSync(path)) {
      say(`  kept    ${path} (exists)`);
      if (path === "README.md") say(`\nAdd this to your README:\n\n${README_SNIPPET}`);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    say(`  created ${path}`);
  }
  say(
    `\nNext: node ${VENDORED} validate; set FORMDOWN_URL and FORMDOWN_API_KEY (also as repository secrets) and node ${VENDORED} deploy. Commit everything, ${VENDORED} included.`,
  );
}

/** The branch `git init` made (master or main, by the user's git), else main. */
function defaultBranch(): string {
  try {
    const name = execFileSync("git", ["symbolic-ref", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return /^[\w./-]{1,100}$/.test(name) ? name : "main";
  } catch {
    return "main";
  }
}

async function vendoredText(url: string | undefined): Promise<string> {
  const settings = resolveSettings(url ? { url } : {});
  try {
    return (await fetchBundle(settings.url)).text;
  } catch (error) {
    const self = runningBundle();
    if (self && error instanceof CliError) return readFile(self, "utf8");
    throw error;
  }
}
