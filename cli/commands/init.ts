import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CAC } from "cac";
import { api, CliError, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { say } from "../lib/output.ts";

const TEMPLATES: Record<string, (slug: string) => string> = {
  form: (slug) => `---
title: ${slug.replace(/-/g, " ")}
slug: ${slug}
fields:
  - id: name
    type: text
    label: Your name
    required: true
  - id: email
    type: email
    label: Email address
    required: true
  - id: message
    type: textarea
    label: Message
---

Tell respondents what this form is for.
`,
  survey: (slug) => `---
title: ${slug.replace(/-/g, " ")}
slug: ${slug}
type: survey
settings:
  progress_bar: true
fields:
  - id: recommend
    type: nps
    label: How likely are you to recommend us?
    required: true
    low_label: Not likely
    high_label: Very likely
  - id: why
    type: textarea
    label: What is the main reason for your score?
---

Two quick questions.
`,
  quiz: (slug) => `---
title: ${slug.replace(/-/g, " ")}
slug: ${slug}
type: quiz
quiz:
  pass_percent: 50
fields:
  - id: q1
    type: radio
    label: What is 2 + 2?
    options: ["3", "4", "5"]
    answer: "4"
    explanation: Two and two make four.
---

A one-question quiz to start from.
`,
};

export function registerInit(cli: CAC): void {
  cli
    .command(
      "init [slug]",
      "Scaffold a forms repository (no slug: example form, workflows, editor schema) or one form file",
    )
    .option("--type <type>", "form, survey or quiz", { default: "form" })
    .option("--handler <handler>", "Your account's handler (default: the API key's, else me)")
    .example("formdown init")
    .example("formdown init feedback --type survey")
    .example("formdown init --url https://forms.example.com   (vendors that server's CLI)")
    .action(
      async (slug: string | undefined, opts: { type: string; handler?: string; url?: string }) => {
        const handler = opts.handler ?? (await keyHandler(opts.url)) ?? "me";
        if (slug === undefined)
          return (await import("./init-repo.ts")).initRepository(handler, opts.url);
        const template = TEMPLATES[opts.type];
        if (!template) throw usage("--type must be form, survey or quiz");
        if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug))
          throw usage("the slug must be lowercase letters, digits and hyphens");
        const path = join("forms", `@${handler}`, `${slug}.md`);
        if (existsSync(path)) throw new CliError(`${path} exists already`, "conflict");
        const text = template(slug);
        const { parseFormFile } = await import("../../src/core/form-file.ts");
        if (!parseFormFile(text, path).ok)
          throw new CliError("internal template error", "internal_error");
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, text);
        say(`Created ${path}. Edit it, then: formdown deploy ${path}`);
      },
    );
}

/** The handler of the API key in use (flag, environment or login), or null without one. */
async function keyHandler(url: string | undefined): Promise<string | null> {
  const settings = resolveSettings(url ? { url } : {});
  if (!settings.key) return null;
  return api<{ handler: string }>(settings, "GET /api/account").then(
    (a) => a.handler,
    () => null,
  );
}
