// SPEC §22 "One reconcile": the one function start-up, the branch watcher and `formdown deploy`
// (POST /api/deploys) call. The desired state is the account's form files at a commit; what the
// server last applied from that repository is stored, so renames are git's (`diff -M` against it,
// worked out by the caller that holds the history), removed files close their form (never a
// delete), and reconciling the same commit twice changes nothing.

import { AppError, raise } from "../../src/core/errors.ts";
import {
  type FormFileError,
  formatFormFileError,
  parseFormFile,
} from "../../src/core/form-file.ts";
import type { AppContext } from "../context.ts";
import { ownTurn } from "../http/body.ts";
import type { Account } from "./accounts.ts";
import { FORM_FILE, upsertForm } from "./deploy.ts";
import { closeRemovedForm, renameForm } from "./file-moves.ts";
import { findForm, publicUrl } from "./form-view.ts";
import type { TranslationTexts } from "./translations.ts";
import { checkedTranslations } from "./translations.ts";
import { planFor } from "./versions/guard.ts";

export interface DesiredFile {
  path: string;
  text: string;
  /** Its translation files' texts by language (SPEC §20). */
  translations: TranslationTexts;
}

export interface DesiredState {
  /** Who the files come from: the normalised origin URL, or `path:<folder>` without one. */
  repository: string;
  /** The commit the files are at (null: a folder without history). */
  commit: string | null;
  /** The account's form files at that commit. */
  files: DesiredFile[];
  /** Files git saw renamed since the last applied commit. */
  renames: { from: string; to: string }[];
  /** `files` is the whole set: a form this repository gave whose file is gone is closed. */
  complete: boolean;
  /** Files present at the commit but not deployed from it (the bundled examples in a repository
   * with forms of its own): their forms are neither changed nor closed. */
  keep?: string[] | undefined;
  dryRun?: boolean | undefined;
  confirm?: boolean | undefined;
}

export type Outcome =
  | "created"
  | "updated"
  | "unchanged"
  | "renamed"
  | "closed"
  | "invalid"
  | "skipped";

export interface ReconcileResult {
  path: string;
  slug: string;
  result: Outcome;
  form_id?: string;
  url?: string;
  renamed_from?: string;
  reason?: string;
  /** Why a file was refused (`plan_needs_confirmation`, `forbidden`…). */
  code?: string;
  plan?: unknown;
}

/** The last commit reconciled from a repository into an account, or null. */
export async function appliedCommit(ctx: AppContext, account: Account, repository: string) {
  const [row] = await ctx.db.query<{ commit_sha: string }>(
    "select commit_sha from repository_heads where repository = $1 and account_id = $2",
    [repository, account.id],
  );
  return row?.commit_sha ?? null;
}

export async function reconcile(
  ctx: AppContext,
  account: Account,
  state: DesiredState,
): Promise<{ repository: string; commit: string | null; results: ReconcileResult[] }> {
  if (typeof state.repository !== "string" || state.repository.length === 0)
    raise("invalid_request", "repository must name the repository the files come from.");
  const results: ReconcileResult[] = [];
  const present = new Set<string>();
  const mine: { path: string; slug: string; file: DesiredFile }[] = [];
  for (const file of state.files) {
    const m = FORM_FILE.exec(file.path);
    if (!m) {
      results.push({ path: file.path, slug: "", result: "skipped", reason: "not a form file" });
    } else if (m[1] !== account.handler) {
      results.push({
        path: file.path,
        slug: m[2]!,
        result: "skipped",
        reason: `forms/@${m[1]}/ is another account's`,
      });
    } else {
      present.add(file.path);
      mine.push({ path: file.path, slug: m[2]!, file });
    }
  }
  const renamedFrom = new Map<string, string>();
  for (const r of state.renames) {
    const from = FORM_FILE.exec(r.from);
    const to = FORM_FILE.exec(r.to);
    if (from && to && from[1] === account.handler && to[1] === account.handler && present.has(r.to))
      renamedFrom.set(r.to, from[2]!);
  }
  const moved = new Set<string>();
  for (const { path, slug, file } of mine) {
    // a file a turn of the event loop: 31 maximal files (150 ms of parsing each) that a deploy
    // refuses without a query between them held it 7 s (SPEC §23)
    await ownTurn();
    const parsed = parseFormFile(file.text, path);
    if (!parsed.ok) {
      results.push(invalid(path, slug, parsed.errors));
      continue;
    }
    if (parsed.form.slug !== slug) {
      results.push({
        path,
        slug,
        result: "invalid",
        reason: `${path}: the file's slug "${parsed.form.slug}" must match its name "${slug}"`,
      });
      continue;
    }
    try {
      const from = renamedFrom.get(path);
      const rename = from && from !== slug ? await movable(ctx, account, from, slug) : null;
      if (rename) moved.add(rename);
      results.push(
        state.dryRun
          ? await planned(ctx, account, path, parsed.form, file.translations, rename)
          : await applied(ctx, account, state, path, parsed.form, file.translations, rename),
      );
    } catch (error) {
      // a refused file (another account's slug, a destructive change unconfirmed) is reported;
      // the other files are still reconciled
      if (!(error instanceof AppError)) throw error;
      const { code, error: reason, details } = error.failure;
      const plan = (details as { plan?: unknown } | undefined)?.plan;
      results.push({
        path,
        slug,
        result: "invalid",
        code,
        reason: `${path}: ${reason}`,
        ...(plan ? { plan } : {}),
      });
    }
  }
  for (const path of state.keep ?? []) present.add(path);
  if (state.complete) results.push(...(await closeGone(ctx, account, state, present, moved)));
  // the head, and every commit applied with when: a page built at a commit applied before a
  // rename names the renamed form (form-address.ts)
  if (!state.dryRun && state.commit)
    await ctx.db.query(
      `with logged as (insert into applied_commits (repository, account_id, commit_sha)
                       values ($1, $2, $3) on conflict do nothing)
       insert into repository_heads (repository, account_id, commit_sha) values ($1, $2, $3)
       on conflict (repository, account_id)
       do update set commit_sha = excluded.commit_sha, applied_at = now()`,
      [state.repository, account.id, state.commit],
    );
  return { repository: state.repository, commit: state.commit, results };
}

/** The old slug of a rename the server can carry out: the account's form, its new slug free. */
async function movable(ctx: AppContext, account: Account, from: string, to: string) {
  const [old, taken] = await Promise.all([findForm(ctx, from), findForm(ctx, to)]);
  return old && old.account_id === account.id && !taken ? from : null;
}

const invalid = (path: string, slug: string, errors: FormFileError[]): ReconcileResult => ({
  path,
  slug,
  result: "invalid",
  reason: errors.map(formatFormFileError).slice(0, 5).join("; "),
});

async function applied(
  ctx: AppContext,
  account: Account,
  state: DesiredState,
  path: string,
  form: { slug: string },
  translations: TranslationTexts,
  renamedFrom: string | null,
): Promise<ReconcileResult> {
  if (renamedFrom) await renameForm(ctx, account, renamedFrom, form.slug);
  const done = await upsertForm(
    ctx,
    account,
    form.slug,
    { ...form, translations },
    { path, sha: state.commit },
    { confirm: state.confirm },
  );
  await ctx.db.query(
    "update forms set repository = $2, file_path = $3 where id = $1 and account_id = $4",
    [done.form_id, state.repository, path, account.id],
  );
  return {
    path,
    slug: form.slug,
    result: renamedFrom ? "renamed" : done.result,
    form_id: done.form_id,
    url: done.url,
    ...(renamedFrom ? { renamed_from: renamedFrom } : {}),
    ...("plan" in done && done.plan ? { plan: done.plan } : {}),
  };
}

async function planned(
  ctx: AppContext,
  account: Account,
  path: string,
  form: Parameters<typeof planFor>[2],
  translations: TranslationTexts,
  renamedFrom: string | null,
): Promise<ReconcileResult> {
  const existing = await findForm(ctx, renamedFrom ?? form.slug);
  if (existing && existing.account_id !== account.id)
    raise("forbidden", "This form belongs to another account.");
  const strings = checkedTranslations(form, account.handler, translations);
  const plan = await planFor(ctx, existing, form, strings);
  const changed = !existing || plan.changes.length > 0;
  return {
    path,
    slug: form.slug,
    result: renamedFrom ? "renamed" : !existing ? "created" : changed ? "updated" : "unchanged",
    ...(existing ? { form_id: existing.id, url: publicUrl(ctx, existing) } : {}),
    ...(renamedFrom ? { renamed_from: renamedFrom } : {}),
    plan,
  };
}

/**
 * Forms this repository gave whose file is gone: closed, never deleted. A form whose repository
 * is not known (deployed before it was recorded, or made over REST) is left alone.
 */
async function closeGone(
  ctx: AppContext,
  account: Account,
  state: DesiredState,
  present: ReadonlySet<string>,
  moved: ReadonlySet<string>,
): Promise<ReconcileResult[]> {
  const rows = await ctx.db.query<{ slug: string; file_path: string }>(
    `select slug, file_path from forms
      where account_id = $1 and repository = $2 and file_path is not null
        and access_mode <> 'closed' and not draft`,
    [account.id, state.repository],
  );
  const out: ReconcileResult[] = [];
  for (const row of rows) {
    if (present.has(row.file_path) || moved.has(row.slug)) continue;
    if (state.dryRun) {
      out.push({ path: row.file_path, slug: row.slug, result: "closed", reason: "file removed" });
      continue;
    }
    const done = await closeRemovedForm(ctx, account, row.slug);
    out.push({
      path: row.file_path,
      slug: row.slug,
      result: "closed",
      form_id: done.form_id,
      url: done.url,
      reason: "file removed",
    });
  }
  return out;
}
