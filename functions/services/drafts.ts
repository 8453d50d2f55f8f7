// Drafts and test answers (SPEC §16): a form created with `status: "draft"` has an unguessable
// preview page and no public one; publishing makes it live. Answers sent with the owner's key or
// from the preview page are test answers, kept apart from the real ones and cleared in one call.
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { randomToken } from "../crypto.ts";
import type { Account } from "./accounts.ts";
import { commitFile } from "./form-files.ts";
import { findForm, ownedFormHead, previewUrl, publicUrl } from "./form-view.ts";

/** Makes a draft live (publishing a live form again changes nothing). */
export async function publishForm(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  if (row.draft) {
    const { path, sha } = await commitFile(
      ctx,
      account.handler,
      row.definition,
      `Publish form ${slug}`,
    );
    // previews are drafts' only (SPEC §23): the live form is reached by its public page alone
    await ctx.db.query(
      "update forms set draft = false, preview_token = null, file_path = $2, commit_sha = $3, updated_at = now() where id = $1",
      [row.id, path, sha],
    );
    ctx.formCache.forget(slug);
  }
  return {
    slug,
    status: row.access_mode === "closed" ? "closed" : "live",
    published: row.draft,
    public_url: publicUrl(ctx, row),
  };
}

/**
 * `POST /api/forms/{slug}/preview/rotate`: a new preview link for a draft; the old one stops
 * working at once (its pages, submits and uploads). A live form has no preview: 409.
 */
export async function rotatePreview(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  const token = randomToken(24);
  const [done] = await ctx.db.query<{ preview_token: string }>(
    "update forms set preview_token = $2, updated_at = now() where id = $1 and draft returning preview_token",
    [row.id, token],
  );
  if (!done)
    raise(
      "conflict",
      "This form is live: previews are drafts' only (its public page is its link).",
    );
  ctx.formCache.forget(slug);
  return { slug, preview_url: previewUrl(ctx, done!)! };
}

/** The draft a preview link names, or null (an unknown token looks like any missing page). */
export async function formByPreview(ctx: AppContext, token: string) {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [hit] = await ctx.db.query<{ slug: string }>(
    "select slug from forms where preview_token = $1 and draft",
    [token],
  );
  const row = hit ? await findForm(ctx, hit.slug) : null;
  return row?.draft ? row : null;
}

/**
 * What an open preview page polls to reload after a change (`formdown dev`): the draft's version,
 * one more for each change of its definition. Unknown tokens are not found, as their pages are.
 */
export async function previewVersion(ctx: AppContext, token: string) {
  const [hit] = /^[A-Za-z0-9_-]{20,64}$/.test(token)
    ? await ctx.db.query<{ version: number; updated_at: string }>(
        "select version, updated_at from forms where preview_token = $1 and draft",
        [token],
      )
    : [];
  if (!hit) return raise("not_found", "No such preview.");
  return { version: hit.version, updated_at: new Date(hit.updated_at).toISOString() };
}

/** `DELETE /api/forms/{slug}/responses?test=true`: every test answer of the form at once. */
export async function deleteTestResponses(ctx: AppContext, account: Account, slug: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const [row] = await ctx.db.query<{ deleted: number; files: string[] }>(
    `with gone as (delete from responses where form_id = $1 and test returning id),
      files as (delete from uploads where response_id in (select id from gone) returning storage_key)
     select (select count(*) from gone)::int as deleted,
            coalesce((select array_agg(storage_key) from files), '{}') as files`,
    [form.id],
  );
  for (const key of row?.files ?? []) await ctx.storage.remove(key).catch(() => {});
  return { deleted: row?.deleted ?? 0 };
}
