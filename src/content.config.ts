import { defineCollection } from "astro:content";
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { glob } from "astro/loaders";
import { z } from "zod";
import { BUNDLED_EXAMPLES, hasOwnForms } from "./core/bundled-examples.ts";
import { formatFormFileError, parseFormFile } from "./core/form-file.ts";
import { type Form, formSchema } from "./core/schema.ts";
import {
  checkTranslationFile,
  isTranslationFile,
  listedWithMore,
} from "./core/translation-file.ts";

// forms/@<handler>/<slug>.md — the id keeps the handler, so the URL maps 1:1 to the file.
// <slug>.<lang>.md beside a form is its translation (SPEC §20), never a form of its own.
// FORMDOWN_FORMS_DIR lets a build (bench/build-forms.ts) read forms from elsewhere.
const base = process.env.FORMDOWN_FORMS_DIR ?? "./forms";
/** forms/@<handler>/<slug>.md paths present, to tell the operator's forms from the examples. */
function formPaths(dir: string): string[] {
  const handlers = (() => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  })();
  return handlers
    .filter((d) => d.isDirectory() && d.name.startsWith("@"))
    .flatMap((d) => readdirSync(join(dir, d.name)).map((f) => `forms/${d.name}/${f}`));
}
// a repository with forms of its own builds only those: the bundled examples stay out (SPEC §17)
const skipped = hasOwnForms(formPaths(base))
  ? BUNDLED_EXAMPLES.map((p) => `!${p.slice("forms/".length)}`)
  : [];
const files = glob({
  pattern: ["@*/*.md", "!@*/*.*.md", ...skipped],
  base,
  generateId: ({ entry }) => entry.replace(/\.md$/, ""),
});

/**
 * Every problem of every form file, worded as `formdown validate` words them (file:line), so a
 * broken form fails the build with the message an author already knows. Astro's own schema check
 * still runs after this one, on the same schema.
 */
async function problems(dir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  const handlers = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const handler of handlers.filter((d) => d.isDirectory() && d.name.startsWith("@"))) {
    for (const name of await readdir(join(dir, handler.name))) {
      if (!name.endsWith(".md") || isTranslationFile(name)) continue;
      const path = join(dir, handler.name, name);
      const inside = relative(root, path);
      const shown = inside.startsWith("..") ? path : inside;
      const parsed = parseFormFile(await readFile(path, "utf8"), shown);
      if (!parsed.ok) out.push(...parsed.errors.map(formatFormFileError));
      else if (parsed.form.slug !== name.slice(0, -3))
        out.push(
          `${shown}:1: The file's slug "${parsed.form.slug}" must match its name "${name.slice(0, -3)}".`,
        );
      else out.push(...(await translationProblems(parsed.form, join(dir, handler.name), root)));
    }
  }
  return out;
}

/** A form's translation files as `formdown validate` checks them: errors only (SPEC §20). */
async function translationProblems(form: Form, dir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (const lang of form.languages ?? []) {
    const path = join(dir, `${form.slug}.${lang}.md`);
    const inside = relative(root, path);
    const shown = inside.startsWith("..") ? path : inside;
    const text = await readFile(path, "utf8").catch(() => null);
    if (text === null)
      out.push(`${shown}:1: "${lang}" is in the form's languages but this file is missing.`);
    else {
      const { errors, more } = checkTranslationFile(form, text, shown);
      out.push(...listedWithMore(errors, more.errors, shown).map(formatFormFileError));
    }
  }
  return out;
}

const forms = defineCollection({
  loader: {
    name: "formdown-forms",
    async load(context) {
      const root = fileURLToPath(context.config.root);
      const found = await problems(fileURLToPath(new URL(base, context.config.root)), root);
      if (found.length) {
        throw new Error(`${found.length} problem(s) in the form files:\n${found.join("\n")}`);
      }
      // Astro keeps parsed entries across builds by file digest alone: a schema that gained a
      // key with a default (locale, embed_origins…) would leave old entries without it
      const schema = createHash("sha256")
        .update(JSON.stringify(z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" })))
        .digest("hex");
      if (context.meta.get("schema") !== schema) {
        context.store.clear();
        context.meta.set("schema", schema);
      }
      return files.load(context);
    },
  },
  schema: formSchema,
});

export const collections = { forms };
