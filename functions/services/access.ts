import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { hashPassword, randomToken } from "../crypto.ts";
import type { Account } from "./accounts.ts";
import { ownedForm, publicUrl } from "./form-view.ts";
import { replaceForm } from "./forms.ts";

const MODES = ["public", "link", "password", "closed", "invite"] as const;
type Mode = (typeof MODES)[number];

/**
 * Sets or rotates who may respond (SPEC §4). `link`: the URL carries `?access=<token>` and
 * `rotate` issues a new token; `password`: stored hashed. The file keeps only the mode.
 */
export async function updateAccess(
  ctx: AppContext,
  account: Account,
  slug: string,
  input: Record<string, unknown>,
) {
  const mode = input.mode as Mode;
  if (!MODES.includes(mode)) {
    raise("validation_failed", "mode must be public, link, password, closed or invite.", {
      details: [{ field: "mode", message: "must be public, link, password, closed or invite" }],
    });
  }
  const password = input.password;
  if (
    mode === "password" &&
    (typeof password !== "string" || password.length < 4 || password.length > 200)
  ) {
    raise("validation_failed", "A password of 4 to 200 characters is required for password mode.", {
      details: [{ field: "password", message: "must be 4 to 200 characters" }],
    });
  }
  if (input.rotate !== undefined && typeof input.rotate !== "boolean") {
    raise("validation_failed", "rotate must be true or false.", {
      details: [{ field: "rotate", message: "must be a boolean" }],
    });
  }
  const row = await ownedForm(ctx, account, slug);
  const token =
    mode === "link"
      ? input.rotate === true || !row.access_token
        ? randomToken(18)
        : row.access_token
      : row.access_token;
  const hash =
    mode === "password" ? await hashPassword(password as string) : row.access_password_hash;
  await ctx.db.query(
    "update forms set access_mode = $2, access_token = $3, access_password_hash = $4, updated_at = now() where id = $1",
    [row.id, mode, token, hash],
  );
  ctx.formCache.forget(slug);
  const form = { ...row.definition, access: { mode } };
  await replaceForm(
    ctx,
    account,
    { ...row, access_mode: mode },
    form,
    `Set access of ${slug} to ${mode}`,
  );
  const url = publicUrl(ctx, row);
  return {
    slug,
    mode,
    public_url: mode === "link" ? `${url}?access=${token}` : url,
    ...(mode === "link" ? { access_token: token } : {}),
  };
}
