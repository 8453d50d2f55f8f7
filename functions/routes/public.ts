import type { Hono, MiddlewareHandler } from "hono";
import { raise } from "../../src/core/errors.ts";
import { MAX_ANSWER_KEYS } from "../../src/core/form-bounds.ts";
import { isProtected } from "../../src/core/locked-form.ts";
import { publicForm } from "../../src/core/public-form.ts";
import { auditDetail, recordAudit } from "../audit/log.ts";
import { authenticate, clientIp, type Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { front, one } from "../contracts/front-ops.ts";
import { MAX_BODY, readJson } from "../http/body.ts";
import { needForm, needScope } from "../scopes.ts";
import type { Account } from "../services/accounts.ts";
import { recordEvent } from "../services/events.ts";
import { findPublicForm, formStatus } from "../services/form-view.ts";
import { checkAccess, checkAntiBot } from "../services/respondent-access.ts";
import { submit } from "../services/submit.ts";
import { upload } from "../services/uploads.ts";

/**
 * CORS open to every origin. Set through `c.header` before the handler runs, so the handler's
 * response carries it as built (hono/cors edits the finished response's headers, which on Node
 * turns the light response back into a full Web Response on every submit).
 */
const open: MiddlewareHandler = async (c, next) => {
  c.header("access-control-allow-origin", "*");
  if (c.req.method === "OPTIONS") {
    c.header("access-control-allow-methods", "GET,HEAD,POST,OPTIONS");
    c.header(
      "access-control-allow-headers",
      "content-type,idempotency-key,x-formdown-access,x-formdown-antibot",
    );
    c.header("access-control-max-age", "86400");
    return c.body(null, 204);
  }
  await next();
  // an error answer is built by the error handler, without the headers set above
  if (c.error) c.res.headers.set("access-control-allow-origin", "*");
};

/**
 * The account of a key sent with a submit or upload: its owner's test answer or, with
 * `test: false`, a real one, past the anti-bot check and the password. That writes answers: the
 * key needs `write` and the form (SPEC §23), as try_form does.
 */
async function answeringKey(ctx: AppContext, header: string, slug: string): Promise<Account> {
  const account = await authenticate(ctx, header);
  needScope(account, "write", "Answering a form with a key");
  needForm(account, slug);
  return account;
}

/**
 * Endpoints respondents' pages call, possibly from another origin: CORS open. What a cold start's
 * first submit does not need (a draft's preview, a renamed form's redirect, which reach the form
 * files' parsers) is imported by the route that uses it.
 */
export function publicRoutes(app: Hono<Env>, ctx: AppContext): void {
  for (const path of [
    "/api/challenge",
    "/api/forms/:slug/submit",
    "/api/forms/:slug/events",
    "/api/forms/:slug/uploads",
    "/api/forms/:slug/public",
    "/api/preview/:token",
    "/api/forms/:slug/partial",
    "/api/forms/:slug/partial/:token",
  ]) {
    app.use(path, open);
  }

  app.get("/api/challenge", front("getChallenge"), async (c) => {
    if (!ctx.antibot.challenge) raise("not_found", "This deployment uses Turnstile, not ALTCHA.");
    c.header("cache-control", "no-store");
    return c.json(await ctx.antibot.challenge!());
  });

  app.post("/api/forms/:slug/submit", front("submitResponse"), async (c) => {
    const body = await readJson(c, MAX_BODY, false, MAX_ANSWER_KEYS);
    // sent with an API key: the owner's test answer (SPEC §16); a wrong key is 401, as anywhere
    const auth = c.req.header("authorization");
    const ip = clientIp(c, ctx.config.trustedProxies);
    const slug = c.req.param("slug");
    const account = auth === undefined ? undefined : await answeringKey(ctx, auth, slug);
    const result = await submit(ctx, slug, {
      body,
      ip,
      idempotencyKey: c.req.header("idempotency-key"),
      accountId: account?.id,
      built: one(c, "built"),
    });
    // a key's answer (a test one, or a real one past the anti-bot check) is a change, as try_form's
    if (account) {
      account.ip = ip ?? null;
      await recordAudit(ctx, account, {
        action: "form.try",
        form: slug,
        detail: auditDetail({ test: body.test }),
      });
    }
    return c.json(result, 201);
  });

  // a preview page polls this to reload when its draft changes (`formdown dev`, SPEC §21)
  app.get("/api/preview/:token", front("getPreviewVersion"), async (c) => {
    c.header("cache-control", "no-store");
    const { previewVersion } = await import("../services/drafts.ts");
    return c.json(await previewVersion(ctx, c.req.param("token")));
  });

  // partial responses (SPEC §25): saved page by page, resumed by their token
  // loaded with the first: a form without settings.partial never calls them (a cold start's weight)
  app.post("/api/forms/:slug/partial", front("savePartialResponse"), async (c) =>
    c.json(
      await (await import("../services/partials.ts")).savePartial(
        ctx,
        c.req.param("slug"),
        await readJson(c, MAX_BODY, false, MAX_ANSWER_KEYS),
        clientIp(c, ctx.config.trustedProxies),
        one(c, "built"),
      ),
    ),
  );
  app.get("/api/forms/:slug/partial/:token", front("getPartialResponse"), async (c) => {
    c.header("cache-control", "no-store");
    const { loadPartial } = await import("../services/partials.ts");
    const { slug, token } = c.req.param();
    return c.json(await loadPartial(ctx, slug, token, one(c, "built")));
  });

  app.post("/api/forms/:slug/events", front("recordPageEvent"), async (c) => {
    const body = await readJson(c, 4096);
    const ip = clientIp(c, ctx.config.trustedProxies);
    await recordEvent(ctx, c.req.param("slug"), body, ip, one(c, "built"));
    return c.body(null, 204);
  });

  app.post("/api/forms/:slug/uploads", front("uploadFile"), async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.startsWith("multipart/form-data"))
      raise("invalid_request", "Send the upload as multipart/form-data with `field` and `file`.");
    const length = c.req.header("content-length");
    const auth = c.req.header("authorization");
    return c.json(
      await upload(
        ctx,
        c.req.param("slug"),
        {
          contentType: type,
          contentLength: length === undefined ? null : Number(length),
          body: c.req.raw.body,
        },
        clientIp(c, ctx.config.trustedProxies),
        // with an API key: the owner's (a draft takes uploads only so or from its preview page)
        auth === undefined ? undefined : (await answeringKey(ctx, auth, c.req.param("slug"))).id,
        one(c, "built"),
      ),
      201,
    );
  });

  app.get("/api/uploads/:key{.+}", front("getUpload"), async (c) => {
    const key = decoded(new URL(c.req.url).pathname.slice("/api/uploads/".length));
    // a malformed escape (%FF) cannot name a stored file
    const file = key === null || key.includes("..") ? null : await ctx.storage.get(key);
    if (!file) raise("not_found", "No such file.");
    // a HEAD's answer drops the body unread: the file is let go here, not left open
    if (c.req.method === "HEAD") await file!.data.cancel();
    return new Response(c.req.method === "HEAD" ? null : file!.data, {
      headers: {
        "content-type": file!.contentType,
        "content-disposition": "attachment",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      },
    });
  });

  // A form whose file was renamed: its old page redirects for good (SPEC §16). The page server
  // (node/pages.ts) answers first when the pages are built; this serves it without them.
  app.get("/:at{@[a-z0-9][a-z0-9-]*}/:slug{[a-z0-9-]+}", async (c) => {
    const { renamedTo } = await import("../services/file-moves.ts");
    const moved = await renamedTo(ctx, c.req.param("at").slice(1), c.req.param("slug"));
    if (!moved) raise("not_found", "No such form.");
    const search = new URL(c.req.url).search;
    return c.redirect(`${moved}${search}`, 301);
  });

  // The public definition a page on another origin may render: no answer key, no recipients. A
  // link or password form's content only with its token or password (`access` in the query or
  // X-Formdown-Access; SPEC §19): without one, its title alone; a wrong one, 403 as on submit. A
  // password is tried only with an anti-bot token (X-Formdown-Antibot, or `turnstile_token` in
  // the query; SPEC §23). A draft has none (its preview page is rendered by the server).
  app.get("/api/forms/:slug/public", front("getPublicForm"), async (c) => {
    const row = await findPublicForm(ctx, c.req.param("slug"));
    if (!row || row.draft) return raise("not_found", "No such form.");
    const head = { handler: row.handler, status: formStatus(row), access: row.access_mode };
    if (isProtected(row.access_mode)) {
      const given = c.req.header("x-formdown-access") ?? one(c, "access");
      if (given === undefined) return c.json({ ...head, title: row.definition.title });
      const ip = clientIp(c, ctx.config.trustedProxies);
      if (row.access_mode === "password") {
        const token = c.req.header("x-formdown-antibot") ?? one(c, "turnstile_token");
        await checkAntiBot(ctx, token, ip);
      }
      await checkAccess(ctx, row.slug, row, given, ip);
    }
    return c.json({ ...head, form: publicForm(row.definition) });
  });
}

function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
