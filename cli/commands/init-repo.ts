import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { formSchema } from "../../src/core/schema.ts";
import { usage } from "../lib/api.ts";
import { say } from "../lib/output.ts";
import {
  DEPLOY_WORKFLOW,
  EXAMPLE_FORM,
  PACKAGE_JSON,
  README_SNIPPET,
  VALIDATE_WORKFLOW,
} from "../lib/scaffold.ts";

/**
 * `formdown init` with no slug: a forms-only repository in the current directory. Files that
 * exist already are left alone (and named), so running it twice is harmless.
 */
export async function initRepository(handler: string): Promise<void> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(handler))
    throw usage("--handler must be lowercase letters, digits and hyphens");
  const schema = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" });
  const files: [string, string][] = [
    [`forms/@${handler}/hello.md`, EXAMPLE_FORM(handler)],
    ["formdown.schema.json", `${JSON.stringify(schema, null, 2)}\n`],
    [".github/workflows/formdown-validate.yml", VALIDATE_WORKFLOW],
    [".github/workflows/formdown-deploy.yml", DEPLOY_WORKFLOW],
    ["package.json", PACKAGE_JSON],
    ["README.md", `# Forms\n\n${README_SNIPPET}`],
  ];
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
    "\nNext: npm install, then npx formdown validate; set FORMDOWN_URL and FORMDOWN_API_KEY (also as repository secrets) and npx formdown deploy.",
  );
}
