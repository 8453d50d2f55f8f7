import type { Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { exportResponses, toStream } from "../exports/export.ts";
import { clientFailure } from "../http/errors.ts";
import { responseReport } from "../reports/report.ts";
import { HTML_HEADERS } from "../routes/reports.ts";
import { allows } from "../scopes.ts";
import { updateAccess } from "../services/access.ts";
import { ownedFormHead } from "../services/form-view.ts";
import { listForms } from "../services/forms.ts";
import { getRecord, listRecords } from "../services/responses.ts";
import {
  confirmPage,
  type Filter,
  formPage,
  formsPage,
  type Row,
  responsePage,
  responsesPage,
  sentPage,
  signInPage,
} from "./pages.ts";
import {
  SESSION_SECONDS,
  sendSignInLink,
  sessionFor,
  signInWithKey,
  signInWithLink,
  signOut,
} from "./session.ts";
import {
  COOKIE,
  current,
  html,
  type ResultsEnv,
  readForm,
  sameCsrf,
  sameOrigin,
  signedInPage,
  whereOf,
  who,
} from "./signed-in.ts";

const PER_PAGE = 25;

/**
 * `/results` (SPEC §26): a teammate's forms, reports, responses and exports in the browser, on
 * the API origin, behind a 12-hour `HttpOnly; SameSite=Lax` session cookie.
 */
export function resultsRoutes(app: Hono<Env>, ctx: AppContext): void {
  const r = app as unknown as Hono<ResultsEnv>;
  // the cookie's `secure` is read when answering: the address is known only once the server listens
  const cookie = (c: Context, token: string, maxAge: number) => {
    setCookie(c, COOKIE, token, {
      httpOnly: true,
      sameSite: "Lax",
      secure: ctx.config.baseUrl.startsWith("https:"),
      path: "/results",
      maxAge,
    });
    return c.redirect("/results", 303);
  };
  const startSession = (c: Context, token: string) => cookie(c, token, SESSION_SECONDS);
  const filterOf = (c: Context): Filter => ({
    field: c.req.query("field") ?? "",
    op: c.req.query("op") ?? "eq",
    value: c.req.query("value") ?? "",
  });
  // a form posted from another site is refused, whatever cookie it carries (SameSite=Lax aside)
  r.use("/results/*", async (c, next) => {
    if (c.req.method !== "POST" || sameOrigin(ctx, c)) return next();
    return html(c, signInPage("This form was sent from another site."), 403);
  });
  r.get("/results", async (c) => {
    const session = await current(ctx, c);
    if (!session) return html(c, signInPage());
    return html(c, formsPage(who(session), await listForms(ctx, session.account)));
  });
  r.post("/results/sign-in", async (c) => {
    const email = (await readForm(c))("email").trim();
    // no control character reaches the database (a NUL would be refused there)
    if (!/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u.test(email) || email.length > 254)
      return html(c, signInPage("Enter an email address."), 400);
    await sendSignInLink(ctx, email);
    return html(c, sentPage());
  });
  // the link shows a button: a mail scanner that follows links does not use it up
  r.get("/results/sign-in/:token", (c) => html(c, confirmPage(c.req.param("token"))));
  r.post("/results/sign-in/:token", async (c) => {
    const token = await signInWithLink(ctx, c.req.param("token"));
    if (!token)
      return html(
        c,
        signInPage("That link has expired or was used already: ask for a new one."),
        400,
      );
    return startSession(c, token);
  });
  r.post("/results/key", async (c) => {
    const token = await signInWithKey(ctx, (await readForm(c))("key"));
    if (!token) return html(c, signInPage("That key is not valid."), 401);
    return startSession(c, token);
  });
  r.post("/results/sign-out", async (c) => {
    const token = getCookie(c, COOKIE);
    const session = token ? await sessionFor(ctx, token) : null;
    if (session && !sameCsrf(session, (await readForm(c))("csrf")))
      return html(c, signInPage("The sign-out form was stale: try again."), 403);
    if (token) await signOut(ctx, token);
    return cookie(c, "", 0);
  });

  const signedIn = signedInPage(ctx);
  const base = "/results/forms/:slug";
  r.get(base, signedIn, async (c) => {
    const s = c.get("session");
    const head = await ownedFormHead(ctx, s.account, c.req.param("slug"));
    return html(c, formPage(who(s), head, allows(s.account.scope, "write")));
  });
  r.get(`${base}/report`, signedIn, async (c) => {
    const s = c.get("session");
    const report = await responseReport(ctx, s.account, c.req.param("slug"), "all", {}, "html");
    return c.body(report.html ?? "", 200, HTML_HEADERS);
  });
  r.get(`${base}/responses`, signedIn, async (c) => {
    const s = c.get("session");
    const head = await ownedFormHead(ctx, s.account, c.req.param("slug"));
    const filter = filterOf(c);
    const where = whereOf(head.definition.fields, filter);
    const page = Math.max(1, Math.min(100_000, Number(c.req.query("page")) || 1));
    const query = filter.field ? new URLSearchParams({ ...filter }).toString() : "";
    try {
      const { records, total } = await listRecords(ctx, s.account, head.slug, {
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
        where,
      });
      const pages = Math.max(1, Math.ceil(total / PER_PAGE));
      const rows = records as unknown as Row[];
      return html(c, responsesPage(who(s), head, { rows, total, page, pages, filter, query }));
    } catch (error) {
      const failure = clientFailure(error);
      if (!failure) throw error;
      const view = { rows: [], total: 0, page: 1, pages: 1, filter, query };
      return html(c, responsesPage(who(s), head, view, failure.error), 400);
    }
  });
  r.get(`${base}/responses/:id`, signedIn, async (c) => {
    const s = c.get("session");
    const head = await ownedFormHead(ctx, s.account, c.req.param("slug"));
    const record = await getRecord(ctx, s.account, head.slug, c.req.param("id"));
    return html(c, responsePage(who(s), head, record as unknown as Row));
  });
  r.get(`${base}/export`, signedIn, async (c) => {
    const s = c.get("session");
    const asked = c.req.query("format");
    const format = asked === "json" || asked === "xlsx" ? asked : "csv";
    const head = await ownedFormHead(ctx, s.account, c.req.param("slug"));
    const where = whereOf(head.definition.fields, filterOf(c));
    const range = { since: null, until: null };
    const out = await exportResponses(ctx, s.account, head.slug, format, range, false, where);
    return new Response(toStream(out.chunks()), {
      headers: {
        "content-type": out.contentType,
        ...(format === "xlsx" ? { "x-content-type-options": "nosniff" } : {}),
        "content-disposition": `attachment; filename="${out.slug}-responses.${format}"`,
        "cache-control": "no-store",
      },
    });
  });
  // the one change an editor makes here: a POST with the session's CSRF token
  r.post(`${base}/close`, signedIn, async (c) => {
    const s = c.get("session");
    if (!allows(s.account.scope, "write"))
      return html(c, signInPage("A viewer cannot change a form."), 403);
    if (!sameCsrf(s, (await readForm(c))("csrf")))
      return html(c, signInPage("The form was stale: reload the page and try again."), 403);
    await updateAccess(ctx, s.account, c.req.param("slug"), { mode: "closed" });
    return c.redirect(`/results/forms/${encodeURIComponent(c.req.param("slug"))}`, 303);
  });
}
