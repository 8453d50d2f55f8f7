// Form files renamed or removed (SPEC §16): a deploy that sees a file renamed moves the form to
// its new slug (same id, responses and webhooks; the old public URL redirects 301), and one that
// sees a file removed closes the form. Nothing here deletes a response.
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { needForm } from "../scopes.ts";
import type { Account } from "./accounts.ts";
import { formPath } from "./form-files.ts";
import { findForm, ownedFormHead, publicUrl } from "./form-view.ts";
import { reservedText, slugReserved } from "./slug-reservation.ts";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Moves the caller's form `from` to the free slug `to`, leaving a redirect behind. */
export async function renameForm(ctx: AppContext, account: Account, from: string, to: string) {
  if (typeof to !== "string" || !SLUG.test(to))
    raise("invalid_request", "The new slug must be lowercase letters, digits and hyphens.");
  const row = await ownedFormHead(ctx, account, from);
  needForm(account, to);
  if (from === to) return { slug: to, renamed_from: from };
  if (await findForm(ctx, to)) raise("conflict", `The slug "${to}" is taken.`);
  if (await slugReserved(ctx, account.id, to)) raise("conflict", reservedText(to));
  // one statement: the form moves and its old slug redirects (a redirect from the new slug, left
  // by an earlier move the other way, is dropped: the form itself now answers there)
  await ctx.db.query(
    `with moved as (update forms set slug = $2, file_path = $3, updated_at = now()
                     where id = $1 returning id),
      dropped as (delete from form_slug_redirects where old_slug = $2)
     insert into form_slug_redirects (old_slug, form_id) select $4, id from moved
     on conflict (old_slug) do update set form_id = excluded.form_id, created_at = now()`,
    [row.id, to, formPath(account.handler, to), from],
  );
  ctx.formCache.forget(from);
  ctx.formCache.forget(to);
  return { slug: to, renamed_from: from };
}

/** A removed file closes its form (never a delete): responses, webhooks and the URL stay. */
export async function closeRemovedForm(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  await ctx.db.query(
    "update forms set access_mode = 'closed', file_path = null, updated_at = now() where id = $1",
    [row.id],
  );
  ctx.formCache.forget(slug);
  return { result: "closed" as const, slug, form_id: row.id, url: publicUrl(ctx, row) };
}

/** Where an old public path `/@handler/slug` now lives (its page's URL), or null. */
export async function renamedTo(ctx: AppContext, handler: string, slug: string) {
  const [hit] = await ctx.db.query<{ handler: string; slug: string }>(
    `select a.handler, f.slug from form_slug_redirects r join forms f on f.id = r.form_id
       join accounts a on a.id = f.account_id where r.old_slug = $1`,
    [slug],
  );
  return hit && hit.handler === handler ? publicUrl(ctx, hit) : null;
}
