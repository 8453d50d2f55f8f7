import { raise } from "../src/core/errors.ts";

/**
 * What a key may do (SPEC §23), each level including the one before: `read` reads forms,
 * responses, stats, reports, exports and plans; `write` also changes forms; `admin` also manages
 * keys and webhooks and deletes. A key may also be limited to some forms (by slug).
 */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** What the calling key holds: its one level, and the forms it may touch (null: all of them). */
export interface KeyGrant {
  scope: Scope;
  forms: string[] | null;
}

/** The key of a start-up action or an account's first key: everything. */
export const FULL_GRANT: KeyGrant = { scope: "admin", forms: null };

export const allows = (held: Scope, needed: Scope) =>
  SCOPES.indexOf(held) >= SCOPES.indexOf(needed);

/** The highest level named in a key's stored `scopes` (an unknown name counts as nothing). */
export function levelOf(scopes: readonly string[]): Scope {
  let level: Scope = "read";
  for (const s of scopes)
    if (SCOPES.includes(s as Scope) && allows(s as Scope, level)) level = s as Scope;
  return level;
}

/** 403 `forbidden` naming the scope needed, unless the key holds it. */
export function needScope(grant: KeyGrant, needed: Scope, what: string): void {
  if (allows(grant.scope, needed)) return;
  raise(
    "forbidden",
    `${what} needs a key with the "${needed}" scope; this key has "${grant.scope}". Create one with POST /api/keys {"scopes": ["${needed}"]} (formdown keys create --scope ${needed}).`,
    { details: [{ field: "scope", message: `needs "${needed}"` }] },
  );
}

/**
 * 403 `forbidden` when the key is limited to other forms. Decided from the slug alone, before
 * any lookup, so the answer says nothing about whether such a form exists.
 */
export function needForm(grant: KeyGrant, slug: string): void {
  if (grant.forms === null || grant.forms.includes(slug)) return;
  // a slug sent as a tool argument is any text: quoted in part (SPEC §19)
  const quoted = slug.length > 100 ? `${slug.slice(0, 100)}…` : slug;
  raise(
    "forbidden",
    `This key is limited to the forms ${grant.forms.join(", ")}; "${quoted}" is not one of them.`,
  );
}

/** 403 `forbidden` for a key limited to some forms: what touches the whole account needs all. */
export function needAllForms(grant: KeyGrant, what: string): void {
  if (grant.forms === null) return;
  raise(
    "forbidden",
    `${what} acts on the whole account; this key is limited to the forms ${grant.forms.join(", ")}.`,
  );
}

/**
 * A member's role (SPEC §26) and the widest scope their keys may hold: a viewer's keys read, an
 * editor's also change forms, an owner's also manage keys, members, webhooks and deletes.
 */
export const ROLES = ["owner", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_SCOPE: Record<Role, Scope> = { owner: "admin", editor: "write", viewer: "read" };

/** The narrower of two levels: a member's key holds at most what the role allows. */
export const narrower = (a: Scope, b: Scope): Scope => (allows(a, b) ? b : a);
