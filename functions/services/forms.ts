import { raise, unwrap } from "../../src/core/errors.ts";
import type { Plan } from "../../src/core/plan/plan.ts";
import type { Form } from "../../src/core/schema.ts";
import { deepEqual } from "../../src/core/show-if.ts";
import type { Translations } from "../../src/core/translation.ts";
import { validateForm } from "../../src/core/validate-form.ts";
import type { AppContext } from "../context.ts";
import { randomToken } from "../crypto.ts";
import { needForm } from "../scopes.ts";
import { prepareFileWebhooks } from "../webhooks/file-hooks.ts";
import type { Account } from "./accounts.ts";
import { emptyForm } from "./delete-responses.ts";
import { draftWanted, withoutStatus } from "./draft-input.ts";
import { authorText, commitFile, definitionFrom, formPath } from "./form-files.ts";
import {
  detail,
  FORM_COLUMNS,
  type FormRow,
  findForm,
  ownedForm,
  shortCode,
  summary,
  viewCounts,
} from "./form-view.ts";
import { mergePatch } from "./merge-patch.ts";
import { reservedText, SLUG_FREE_TO, slugReserved } from "./slug-reservation.ts";
import { patchedTranslations, saveTranslations } from "./translation-files.ts";
import { checkedTranslations, formInLanguage, takeTranslations } from "./translations.ts";
import { guardPlan, planFor } from "./versions/guard.ts";
import { snapshotVersion } from "./versions/history.ts";

type FormSummary = ReturnType<typeof summary>;

/** The caller's forms (those its key may touch), newest first, each as a summary (or as `view` shapes it from the row). */
export async function listForms<T = FormSummary>(
  ctx: AppContext,
  account: Account,
  view: (brief: FormSummary, row: FormRow) => T = (s) => s as T,
): Promise<T[]> {
  const rows = await ctx.db.query<FormRow>(
    `select ${FORM_COLUMNS} from forms f join accounts a on a.id = f.account_id
      where f.account_id = $1 and ($2::text[] is null or f.slug = any($2::text[]))
      order by f.created_at desc, f.slug`,
    [account.id, account.forms],
  );
  const views = await viewCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => view(summary(ctx, r, views.get(r.id) ?? 0), r));
}

export async function getForm(ctx: AppContext, account: Account, slug: string, lang?: string) {
  const row = await ownedForm(ctx, account, slug);
  const views = await viewCounts(ctx, [row.id]);
  // in one of its languages (SPEC §20): the definition translated, with the labels of its choices
  return { ...detail(ctx, row, views.get(row.id) ?? 0), ...formInLanguage(row, lang) };
}

/** Creates a form; 409 when the slug is anyone's already (changes go through PATCH or deploy). */
export async function createForm(
  ctx: AppContext,
  account: Account,
  input: unknown,
  options: { commit?: boolean } = {},
) {
  const { input: given, texts } = takeTranslations(input);
  input = given;
  const draft = draftWanted(input);
  const form = definitionFrom(withoutStatus(input));
  needForm(account, form.slug);
  // checked before anything is written: a broken translation creates nothing (SPEC §20)
  const translations = texts && checkedTranslations(form, account.handler, texts);
  // the file's webhooks (SPEC §26) are checked before anything is written, applied after
  const applyWebhooks = await prepareFileWebhooks(ctx, account.handler, form);
  let row: FormRow | undefined;
  for (let attempt = 0; attempt < 5 && !row; attempt++) {
    const rows = await ctx.db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition, access_mode,
         draft, preview_token)
       select $1::uuid, $2::text, $3::text, $4::text, $5::text, $6::jsonb, $7::text, $8::boolean,
         $9::text where ${SLUG_FREE_TO("$1::uuid", "$2::text")}
       on conflict do nothing returning id`,
      [
        account.id,
        form.slug,
        shortCode(),
        form.title,
        form.type,
        JSON.stringify(form),
        form.access.mode,
        draft,
        draft ? randomToken(24) : null,
      ],
    );
    if (rows.length === 0) {
      if (await findForm(ctx, form.slug))
        raise("conflict", `The slug "${form.slug}" is taken; change an existing form with PATCH.`);
      if (await slugReserved(ctx, account.id, form.slug))
        raise("conflict", reservedText(form.slug));
      continue; // a short-code collision: try another code
    }
    row = (await findForm(ctx, form.slug)) ?? undefined;
  }
  if (!row) return raise("internal_error", "Could not allocate a short code.");
  // a draft's file is committed when it is published: until then no build can make it a page
  if (options.commit !== false && !draft) {
    try {
      const { path, sha } = await commitFile(
        ctx,
        account.handler,
        form,
        `Create form ${form.slug}`,
        authorText(withoutStatus(input)),
      );
      await ctx.db.query("update forms set file_path = $2, commit_sha = $3 where id = $1", [
        row.id,
        path,
        sha,
      ]);
    } catch (error) {
      await ctx.db.query("delete from forms where id = $1", [row.id]);
      throw error;
    }
  }
  await snapshotVersion(ctx, row.id);
  await applyWebhooks(row.id);
  // beside the form's file; a draft's wait for its publishing like the file itself
  if (translations)
    await saveTranslations(
      ctx,
      account.handler,
      row,
      texts!,
      translations,
      !draft && options.commit !== false,
    );
  const created = (await findForm(ctx, form.slug))!;
  const view = detail(ctx, created, 0);
  return {
    slug: view.slug,
    form_slug: view.slug,
    status: view.status,
    public_url: view.public_url,
    short_url: view.short_url,
    form_id: view.form_id,
    ...(view.preview_url ? { preview_url: view.preview_url } : {}),
  };
}

/** How a change is deployed: `confirm` accepts a destructive plan (SPEC §16). */
export interface ChangeOptions {
  confirm?: boolean | undefined;
  /** The plan already worked out for this change (deploy_form plans before it writes the file). */
  plan?: Plan | undefined;
  /** The translations deployed with it, for its plan (SPEC §20). */
  translations?: Translations | undefined;
}

/**
 * Replaces the stored definition; unchanged definitions change and commit nothing. A change is
 * planned first and refused when destructive and not confirmed; a change makes a new version.
 */
export async function replaceForm(
  ctx: AppContext,
  account: Account,
  row: FormRow,
  form: Form,
  message: string,
  options: {
    commit?: boolean;
    sha?: string | null;
    text?: string | undefined;
  } & ChangeOptions = {},
) {
  if (form.slug !== row.slug)
    raise("invalid_request", "The slug of a form cannot change; create a new form instead.");
  if (deepEqual(form, row.definition)) return { changed: false };
  const plan = options.plan ?? (await planFor(ctx, row, form, options.translations));
  guardPlan(plan, options.confirm, account);
  const applyWebhooks = await prepareFileWebhooks(ctx, account.handler, form);
  let sha = options.sha ?? row.commit_sha;
  let path = row.file_path;
  // a draft's file waits for its publishing (drafts.ts)
  if (options.commit !== false && !row.draft)
    ({ sha, path } = await commitFile(ctx, account.handler, form, message, options.text));
  else path = path ?? formPath(account.handler, form.slug);
  ctx.formCache.forget(row.slug);
  // the new version, the old one's end (the start of its grace) and the snapshot: one statement
  await ctx.db.query(
    `with f as (
       update forms set definition = $2::jsonb, title = $3, type = $4, access_mode = $5, commit_sha = $6,
         file_path = $7, updated_at = now(), version = version + 1 where id = $1
       returning id, version, definition, commit_sha),
     r as (update form_versions set retired_at = now() where form_id = $1 and retired_at is null)
     insert into form_versions (form_id, version, definition, commit_sha, changes)
       select id, version, definition, commit_sha, $8::jsonb from f`,
    [
      row.id,
      JSON.stringify(form),
      form.title,
      form.type,
      form.access.mode,
      sha,
      path ?? formPath(account.handler, form.slug),
      JSON.stringify(plan.changes),
    ],
  );
  await applyWebhooks(row.id);
  return { changed: true, plan };
}

/** PATCH: only the keys given change; nested objects merge one level deep, arrays replace. */
export async function updateForm(
  ctx: AppContext,
  account: Account,
  slug: string,
  patch: Record<string, unknown>,
  options: ChangeOptions = {},
) {
  await patchForm(ctx, account, slug, patch, options);
  return getForm(ctx, account, slug);
}

/**
 * A patch applied (or, `dryRun`, planned): what update_form answers (SPEC §14: short), the keys
 * it changed and the plan, never the whole definition.
 */
export async function patchForm(
  ctx: AppContext,
  account: Account,
  slug: string,
  patch: Record<string, unknown>,
  options: ChangeOptions & { dryRun?: boolean | undefined } = {},
): Promise<{ slug: string; version: number; changed: string[]; plan: Plan }> {
  const row = await ownedForm(ctx, account, slug);
  if (patch.slug !== undefined && patch.slug !== row.slug)
    raise("invalid_request", "The slug of a form cannot change; create a new form instead.");
  const { input: rest, texts } = takeTranslations(patch);
  const form = unwrap(validateForm(mergePatch(row.definition, rest as Record<string, unknown>)));
  // the languages given replace theirs, checked before the form changes (SPEC §20)
  const translations = texts && (await patchedTranslations(ctx, account.handler, row, form, texts));
  const before = row.definition as unknown as Record<string, unknown>;
  const after = form as unknown as Record<string, unknown>;
  const changed = Object.keys(patch).filter((k) =>
    k === "translations" ? texts !== undefined : !deepEqual(before[k], after[k]),
  );
  const answer = (version: number, plan: Plan) => ({ slug: row.slug, version, changed, plan });
  if (options.dryRun) return answer(row.version, await planFor(ctx, row, form, translations));
  const done = await replaceForm(ctx, account, row, form, `Update form ${slug}`, {
    ...options,
    translations,
  });
  if (translations)
    await saveTranslations(ctx, account.handler, row, texts!, translations, !row.draft);
  return done.changed
    ? answer(row.version + 1, done.plan!)
    : answer(row.version, await planFor(ctx, row, form, translations));
}

export async function deleteForm(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedForm(ctx, account, slug);
  const uploads = await ctx.db.query<{ storage_key: string }>(
    "select storage_key from uploads where form_id = $1",
    [row.id],
  );
  await emptyForm(ctx, row.id);
  // the forms_deleted trigger drops its sequence and deletes its responses (migration 000400)
  await ctx.db.query("delete from forms where id = $1", [row.id]);
  ctx.formCache.forget(slug);
  for (const u of uploads) await ctx.storage.remove(u.storage_key).catch(() => {});
  if (row.file_path)
    await ctx.repo
      .remove(row.file_path, `Delete form ${slug}`)
      .catch((e) => ctx.log.error(`could not remove ${row.file_path}`, e));
}
