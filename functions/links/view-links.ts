// Signed, expiring links that open in a browser without an API key (the links in emails): the
// URL carries its expiry and an HMAC-SHA256 of what it shows, keyed by a server secret
// (FORMDOWN_SECRET, or one generated once and kept in the database for every instance).
import type { AppContext } from "../context.ts";
import { constantTimeEqual, randomToken } from "../crypto.ts";

/** How long a link in an email keeps working. */
export const VIEW_LINK_DAYS = 30;

export type ViewTarget =
  | { kind: "response"; id: string }
  | { kind: "report"; formId: string; period: string };

const keys = new WeakMap<AppContext, Promise<CryptoKey>>();
const encoder = new TextEncoder();

async function loadKey(ctx: AppContext): Promise<CryptoKey> {
  let secret = ctx.config.secret;
  if (!secret) {
    await ctx.db.query(
      "insert into server_secrets (name, value) values ('view_links', $1) on conflict (name) do nothing",
      [randomToken(32)],
    );
    const [row] = await ctx.db.query<{ value: string }>(
      "select value from server_secrets where name = 'view_links'",
    );
    secret = row!.value;
  }
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

function keyFor(ctx: AppContext): Promise<CryptoKey> {
  let key = keys.get(ctx);
  if (!key) {
    key = loadKey(ctx);
    key.catch(() => keys.delete(ctx));
    keys.set(ctx, key);
  }
  return key;
}

const message = (t: ViewTarget, exp: number) =>
  t.kind === "response" ? `response\n${t.id}\n${exp}` : `report\n${t.formId}\n${t.period}\n${exp}`;

async function sign(ctx: AppContext, t: ViewTarget, exp: number): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(ctx), encoder.encode(message(t, exp)));
  return btoa(String.fromCharCode(...new Uint8Array(mac)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const path = (t: ViewTarget) =>
  t.kind === "response"
    ? `/view/responses/${encodeURIComponent(t.id)}?`
    : `/view/forms/${encodeURIComponent(t.formId)}/report?period=${encodeURIComponent(t.period)}&`;

/** A link to `t` that opens until `VIEW_LINK_DAYS` after `now`. */
export async function viewLink(ctx: AppContext, t: ViewTarget, now = Date.now()): Promise<string> {
  const exp = Math.floor(now / 1000) + VIEW_LINK_DAYS * 86_400;
  return `${ctx.config.baseUrl}${path(t)}exp=${exp}&sig=${await sign(ctx, t, exp)}`;
}

/** Whether `sig` signs `t` with this `exp`, and `exp` has not passed. */
export async function verifyViewLink(
  ctx: AppContext,
  t: ViewTarget,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
  if (Number(exp) * 1000 <= now) return false;
  return constantTimeEqual(await sign(ctx, t, Number(exp)), sig);
}
