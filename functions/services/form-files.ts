// A form's file in the repository (SPEC §15): where it lives, a definition read from a body
// (JSON or the file's text), the file written (the author's text, or the one there edited in
// place) and read back.
import { raise, unwrap } from "../../src/core/errors.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { editSteps, serialiseForm } from "../../src/core/form-write.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";
import type { AppContext } from "../context.ts";
import { ownTurn } from "../http/body.ts";
import type { Account } from "./accounts.ts";
import { ownedFormHead } from "./form-view.ts";

export const formPath = (handler: string, slug: string) => `forms/@${handler}/${slug}.md`;

/** A form file's definition, or validation_failed with each problem's line. */
export function parsedFormFile(text: string, path: string): Form {
  const parsed = parseFormFile(text, path);
  if (parsed.ok) return parsed.form;
  const details = parsed.errors.map((e) => ({
    field: e.path || "(file)",
    message: `line ${e.line}: ${e.message}`,
  }));
  return raise("validation_failed", "The form file is not valid.", { details });
}

/** A definition from a REST/MCP body: `{markdown: "<form file>"}` or the JSON definition itself. */
export function definitionFrom(input: unknown): Form {
  const markdown = authorText(input);
  return markdown === undefined ? unwrap(validateForm(input)) : parsedFormFile(markdown, "form.md");
}

/** The whole form file an author sent (`{markdown}`), which is written as it is, never re-printed. */
export function authorText(input: unknown): string | undefined {
  const markdown = (input as { markdown?: unknown } | null)?.markdown;
  return typeof markdown === "string" ? markdown : undefined;
}

/**
 * Writes a form's file (SPEC §15): the author's own text when given; otherwise the file already
 * in the repository, edited in place (comments, order and layout kept, only changed lines
 * differ); otherwise a new minimal file.
 */
export async function commitFile(
  ctx: AppContext,
  handler: string,
  form: Form,
  message: string,
  text?: string,
) {
  const path = formPath(handler, form.slug);
  let content = text;
  if (content === undefined) {
    const current = await ctx.repo.read(path);
    content = current === null ? serialiseForm(form) : await editInTurns(current, form);
  }
  const { sha } = await ctx.repo.write(path, content, message);
  return { path, sha };
}

/** `editFormFile` with a turn of the event loop between its steps (a dense header's parse and
 * prints are each a few hundred milliseconds; eleventh review: 1.3–3.2 s in one piece). */
async function editInTurns(text: string, form: Form): Promise<string> {
  const steps = editSteps(text, form);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await ownTurn();
  }
}

/** The form's file as committed: the one the repository holds for it. */
export async function readFormFile(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  const path = row.file_path ?? formPath(account.handler, slug);
  const content = await ctx.repo.read(path);
  if (content === null)
    return raise("not_found", `The form ${slug} has no file ${path} in the repository.`);
  return { slug, path, content };
}
