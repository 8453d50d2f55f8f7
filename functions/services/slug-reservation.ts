import type { AppContext } from "../context.ts";

/**
 * SQL: whether account `account` may take slug `slug` (both parameters): a renamed form's old
 * slug stays its account's while the redirect stands, so no other account receives the old
 * page's answers (SPEC §23).
 */
export const SLUG_FREE_TO = (account: string, slug: string) =>
  `not exists (select 1 from form_slug_redirects r join forms o on o.id = r.form_id
     where r.old_slug = ${slug} and o.account_id <> ${account})`;

/** Whether `slug` redirects to a form of another account than `accountId`. */
export async function slugReserved(ctx: AppContext, accountId: string, slug: string) {
  const [row] = await ctx.db.query<{ free: boolean }>(
    `select ${SLUG_FREE_TO("$1::uuid", "$2")} as free`,
    [accountId, slug],
  );
  return row?.free === false;
}

export const reservedText = (slug: string) =>
  `The slug "${slug}" is taken: a renamed form of another account still redirects from it.`;
