import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { routePath } from "hono/route";
import { RESULTS_ACTIONS } from "../audit/actions.ts";
import { auditDetail, recordAudit } from "../audit/log.ts";
import { clientIp, type Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { constantTimeEqual } from "../crypto.ts";
import { clientFailure } from "../http/errors.ts";
import { HEADERS } from "./layout.ts";
import { errorPage, type Filter, signInPage, type Who } from "./pages.ts";
import { type ResultsSession, sessionFor } from "./session.ts";

// What every page of `/results` shares: the session cookie, who is signed in, the checks a
// posted form passes, and the audit log's row for each page that reads responses.

export const COOKIE = "fd_results";
export type ResultsEnv = Env & { Variables: { session: ResultsSession } };

const ROLE_NAMES = { read: "viewer", write: "editor", admin: "owner" } as const;
export const who = (s: ResultsSession): Who => ({
  name: s.account.actor ?? s.account.handler,
  role: ROLE_NAMES[s.account.scope],
  csrf: s.csrf,
});
export const html = (c: Context, body: string, status = 200) =>
  c.body(body, status as 200, HEADERS);

export function sameOrigin(ctx: AppContext, c: Context): boolean {
  const origin = c.req.header("origin");
  if (!origin) return true;
  if (origin === new URL(ctx.config.baseUrl).origin) return true;
  return URL.canParse(origin) && new URL(origin).host === c.req.header("host");
}

export const sameCsrf = (s: ResultsSession, sent: string) =>
  sent.length > 0 && constantTimeEqual(sent, s.csrf);

export async function current(ctx: AppContext, c: Context): Promise<ResultsSession | null> {
  const token = getCookie(c, COOKIE);
  return token ? sessionFor(ctx, token) : null;
}

/** A condition of the filter form as `where` (SPEC §18): a number for a numeric field. */
export function whereOf(fields: { id: string; type: string }[], f: Filter): string | undefined {
  if (!f.field) return undefined;
  const type = fields.find((x) => x.id === f.field)?.type;
  const numeric = ["number", "rating", "scale", "nps"].includes(type ?? "");
  const valueless = f.op === "answered" || f.op === "unanswered";
  const value =
    numeric && f.value.trim() !== "" && Number.isFinite(Number(f.value))
      ? Number(f.value)
      : f.value;
  return JSON.stringify([{ field: f.field, op: f.op, ...(valueless ? {} : { value }) }]);
}

/**
 * A page behind the session: without one, the sign-in page; with one, the account it acts as,
 * then — once answered — the audit log's row, as requireKey writes it for REST (SPEC §26).
 */
export function signedInPage(ctx: AppContext): MiddlewareHandler<ResultsEnv> {
  return async (c, next) => {
    const session = await current(ctx, c);
    if (!session) return html(c, signInPage("Sign in to see this page."), 401);
    session.account.ip = clientIp(c, ctx.config.trustedProxies) ?? null;
    c.set("session", session);
    await next();
    // a refusal (no such form, another account's, a bad id) as a page, not JSON
    const failure = c.error ? clientFailure(c.error) : null;
    if (failure) {
      const status = { not_found: 404, forbidden: 403 }[failure.code as string] ?? 400;
      c.res = new Response(errorPage(who(session), failure.error), { status, headers: HEADERS });
      return;
    }
    const op = RESULTS_ACTIONS[`${c.req.method} ${routePath(c)}`];
    if (!op || c.error || c.res.status >= 400) return;
    const { slug, ...params } = c.req.param() as Record<string, string>;
    await recordAudit(ctx, session.account, {
      action: op.action,
      form: slug ?? null,
      detail: { ...auditDetail({ ...params, ...c.req.query() }), via: "results" },
    });
  };
}

/** The most a page's form may send: an email, a key or a token, never more. */
const FORM_BYTES = 16 * 1024;

/**
 * A posted form's fields (`application/x-www-form-urlencoded`, as the pages send), read up to
 * FORM_BYTES; a longer body reads as no fields at all.
 */
export async function readForm(c: Context): Promise<(name: string) => string> {
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  const reader = c.req.raw.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > FORM_BYTES) {
      await reader.cancel().catch(() => {});
      text = "";
      break;
    }
    text += decoder.decode(value, { stream: true });
  }
  const fields = new URLSearchParams(text);
  return (name) => (fields.get(name) ?? "").slice(0, 500);
}
