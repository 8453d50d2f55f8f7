import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { needForm } from "../scopes.ts";
import type { Account } from "./accounts.ts";
import { draftWanted, withoutStatus } from "./draft-input.ts";
import { renameForm } from "./file-moves.ts";
import { authorText, definitionFrom, formPath, parsedFormFile } from "./form-files.ts";
import { findForm, previewUrl, publicUrl } from "./form-view.ts";
import { type ChangeOptions, createForm, replaceForm } from "./forms.ts";
import { saveTranslations } from "./translation-files.ts";
import { checkedTranslations, repositoryTranslations, takeTranslations } from "./translations.ts";
import { guardPlan, planFor } from "./versions/guard.ts";
import { snapshotVersion } from "./versions/history.ts";

/** A form file's path: `forms/@<handler>/<slug>.md`. */
export const FORM_FILE = /^forms\/@([a-z0-9][a-z0-9-]*)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** Checks a repository path: only the caller's own `forms/@<handler>/<slug>.md`. */
export function checkFormPath(account: Account, path: unknown): { slug: string; path: string } {
  if (typeof path !== "string" || path.includes("..") || path.includes("\\")) {
    return raise("invalid_request", "The path must look like forms/@<handler>/<slug>.md.");
  }
  const normal = path.replace(/^\.\//, "");
  const m = FORM_FILE.exec(normal);
  if (!m)
    return raise(
      "invalid_request",
      "The path must look like forms/@<handler>/<slug>.md (slug: lowercase letters, digits, hyphens).",
    );
  if (m[1] !== account.handler)
    raise(
      "forbidden",
      `forms/@${m[1]}/ belongs to another account; yours is forms/@${account.handler}/.`,
    );
  return { slug: m[2]!, path: normal };
}

/**
 * Create-or-update from a definition (REST PUT, CLI deploy): the form is made live at once and its
 * file committed. A definition equal to the stored one changes and commits nothing. With
 * `status: "draft"` (what `formdown dev` sends) it creates or updates a draft and nothing else:
 * a live form under that slug is refused, never changed.
 */
export async function upsertForm(
  ctx: AppContext,
  account: Account,
  slug: string,
  input: unknown,
  file?: { path: string; sha: string | null },
  options: ChangeOptions = {},
) {
  const from = renamedFrom(input);
  if (from !== undefined) {
    const { renamed_from: _, ...rest } = input as Record<string, unknown>;
    input = rest;
  }
  const { input: given, texts } = takeTranslations(input);
  input = given;
  const draft = draftWanted(input);
  input = withoutStatus(input);
  needForm(account, slug);
  const form = definitionFrom(input);
  if (form.slug !== slug)
    raise("invalid_request", `The definition's slug "${form.slug}" does not match "${slug}".`);
  // checked before anything changes: a broken translation leaves the form as it was
  const translations = texts && checkedTranslations(form, account.handler, texts);
  const translate = async (id: string) =>
    !!translations &&
    saveTranslations(ctx, account.handler, { id, slug }, texts!, translations, !file);
  // a file renamed (SPEC §16): the form moves to the new slug with its id, responses and webhooks
  const renamed = from !== undefined && from !== slug && !(await findForm(ctx, slug));
  if (renamed) await renameForm(ctx, account, from!, slug);
  const row = await findForm(ctx, slug);
  if (!row) {
    // a file deployed as written is already in the repository: record it rather than rewrite it
    // the author's own text (`{markdown}`) is what gets written, never a re-printed definition
    const created = await createForm(
      ctx,
      account,
      { ...(authorText(input) ? (input as object) : form), ...(draft ? { status: "draft" } : {}) },
      { commit: !file },
    );
    if (file)
      await ctx.db.query("update forms set file_path = $2, commit_sha = $3 where id = $1", [
        created.form_id,
        file.path,
        file.sha,
      ]);
    if (file) await snapshotVersion(ctx, created.form_id);
    await translate(created.form_id);
    return {
      result: "created" as const,
      slug,
      form_id: created.form_id,
      url: created.public_url,
      ...(created.preview_url ? { preview_url: created.preview_url } : {}),
    };
  }
  if (row.account_id !== account.id) raise("forbidden", "This form belongs to another account.");
  if (draft && !row.draft)
    raise("conflict", `"${slug}" is a live form: a draft cannot replace it (publish is separate).`);
  const { changed, plan } = await replaceForm(
    ctx,
    account,
    row,
    form,
    `Deploy form ${slug}`,
    file
      ? { ...options, commit: false, sha: file.sha, translations }
      : { ...options, text: authorText(input), translations },
  );
  const translated = await translate(row.id);
  return {
    result: renamed
      ? ("renamed" as const)
      : changed || translated
        ? ("updated" as const)
        : ("unchanged" as const),
    slug,
    form_id: row.id,
    url: publicUrl(ctx, row),
    ...(row.draft ? { preview_url: previewUrl(ctx, row) } : {}),
    ...(plan ? { plan } : {}),
  };
}

/** `renamed_from`: the slug of the file this one was renamed from, or undefined. */
function renamedFrom(input: unknown): string | undefined {
  const from = (input as { renamed_from?: unknown } | null)?.renamed_from;
  if (from === undefined) return undefined;
  if (typeof from !== "string") raise("invalid_request", "renamed_from must be a slug.");
  return from as string;
}

/** deploy_form: a file in the repository (written and committed first when content is given). */
export async function deployFormFile(
  ctx: AppContext,
  account: Account,
  path: unknown,
  content?: unknown,
  options: { confirm?: boolean | undefined; dryRun?: boolean | undefined } = {},
) {
  const target = checkFormPath(account, path);
  let text: string | null;
  if (content !== undefined) {
    if (typeof content !== "string")
      raise("invalid_request", "content must be the whole form file as text.");
    text = withSlug(content as string, target.slug);
  } else {
    text = await ctx.repo.read(target.path);
    if (text === null) raise("not_found", `There is no file ${target.path} in the repository.`);
  }
  const form = parsedFormFile(text!, target.path);
  if (form.slug !== target.slug)
    raise(
      "invalid_request",
      `The file's slug "${form.slug}" must match its name "${target.slug}".`,
    );
  const existing = await findForm(ctx, target.slug);
  if (existing && existing.account_id !== account.id)
    raise("forbidden", "This form belongs to another account.");
  // the translation files beside it go with it (SPEC §20), checked and planned with it
  const texts = await repositoryTranslations(ctx, account.handler, form);
  const strings = checkedTranslations(form, account.handler, texts);
  // planned before the file is written: a refused change leaves the repository as it was
  const plan = await planFor(ctx, existing, form, strings);
  if (options.dryRun) return { plan };
  guardPlan(plan, options.confirm, account);
  let sha = existing?.commit_sha ?? null;
  if (content !== undefined)
    ({ sha } = await ctx.repo.write(target.path, text!, `Deploy form ${target.slug}`));
  const done = await upsertForm(
    ctx,
    account,
    target.slug,
    { ...form, translations: texts },
    { path: target.path, sha },
    { confirm: true, plan },
  );
  return {
    result: done.result,
    form_id: done.form_id,
    slug: done.slug,
    path: formPath(account.handler, target.slug),
    public_url: done.url,
  };
}

/**
 * The file's name already says its slug: a header without `slug:` gets it from the path, so an
 * author need not repeat it. A header that states a slug keeps it (and must match the name).
 */
export function withSlug(content: string, slug: string): string {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(content);
  if (!open) return content;
  const start = open[0].length;
  const end = content.slice(start).search(/^---[ \t]*\r?$/m);
  if (end === -1 || /^slug[ \t]*:/m.test(content.slice(start, start + end))) return content;
  // added as the header's last line, so every line the author wrote keeps its number in errors
  const at = start + end;
  return `${content.slice(0, at)}slug: ${slug}\n${content.slice(at)}`;
}
