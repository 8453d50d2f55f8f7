import { existsSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { isProtected, lockedForm } from "../../src/core/locked-form.ts";
import { formLanguages } from "../../src/core/translation.ts";
import { type PageModel, pageModel } from "../../src/lib/page-model.ts";
import type { AppContext } from "../context.ts";
import { clientAddress } from "../http/client-address.ts";
import { PAGES_LIST } from "../links/page-origins.ts";
import { formByPreview } from "../services/drafts.ts";
import { renamedTo } from "../services/file-moves.ts";
import { type FormRow, findForm, formStatus, publicUrl } from "../services/form-view.ts";
import { checkAccess, checkAntiBot } from "../services/respondent-access.ts";
import { buildFinished } from "./build-pages.ts";
import { compressOutgoing } from "./compress.ts";
import { pageHtml } from "./page-html.ts";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const DIST = join(ROOT, "dist");
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

type NodeEnv = { incoming: IncomingMessage; outgoing: ServerResponse };
type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  locals: object,
) => Promise<void>;
export type PagesHandler = ((req: Request, env: unknown) => Promise<Response | null>) & {
  /** A form's page for the MCP form app (SPEC §18), rendered by the same components. */
  html(model: PageModel): Promise<string | null>;
};

/**
 * The respondent pages in the embedded server: the Astro build's assets, and `/@<handler>/<slug>`
 * rendered on demand from the database's current definition by the same components as the
 * prerendered pages, so a form created or changed over the API is served at once. Short codes
 * and variant B's `/<slug>` redirect to the page. Returns null for everything else.
 */
export async function createPagesHandler(ctx: AppContext): Promise<PagesHandler | null> {
  const entry = join(DIST, "server", "entry.mjs");
  if (!existsSync(entry)) {
    ctx.log.info("Note: the pages are not built (run `npm run build`); only the API is served.");
    return null;
  }
  const client = join(DIST, "client");
  const load = async (version: number) =>
    ((await import(`${pathToFileURL(entry).href}?v=${version}`)) as { handler: AstroHandler })
      .handler;
  // A rebuild (another `npm start`, a test run in this checkout) replaces the hashed assets that
  // rendered pages name. At most once a second, notice a new build and load its module graph
  // (its mtime in the URL, so the import cache cannot hand back the old entry).
  await buildFinished();
  let version = statSync(entry).mtimeMs;
  let handler: AstroHandler;
  try {
    handler = await load(version);
  } catch (error) {
    // a build whose entry was written but not the rest (a killed build): the API still serves
    ctx.log.error("The pages build in dist/ does not load (run `npm run build`).", error);
    return null;
  }
  let checked = Date.now();
  const current = async () => {
    if (Date.now() - checked < 1000) return handler;
    checked = Date.now();
    const now = existsSync(entry) ? statSync(entry).mtimeMs : version;
    if (now !== version) {
      try {
        handler = await load(now);
        version = now;
      } catch {
        // a build still being written: keep the old pages and look again in a second
      }
    }
    return handler;
  };
  const handle = async (req: Request, env: unknown): Promise<Response | null> => {
    const url = new URL(req.url);
    const path = decodeURIComponent(url.pathname);
    // a locked page prerendered on a static host fetches its form from here (src/runtime/unlock.ts)
    if (req.method === "OPTIONS" && /^\/@[a-z0-9-]+\/[a-z0-9-]+/.test(path))
      return new Response(null, { status: 204, headers: PAGE_CORS });
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    // this server renders every form, whatever its dist/ was built from (links/page-origins.ts)
    if (path === PAGES_LIST)
      return Response.json({ every_form: true }, { headers: { "cache-control": "no-cache" } });
    if (extname(path) && !path.includes("..")) return serveFile(join(client, path));
    // the form's own language at its URL, each translation at `<URL>/<lang>` (SPEC §20)
    const page = /^\/@([a-z0-9-]+)\/([a-z0-9-]+)(?:\/([a-z]{2,3}))?\/?$/.exec(path);
    const preview = /^\/preview\/([A-Za-z0-9_-]{20,64})\/?$/.exec(path);
    if (page || preview) {
      const row = preview ? await formByPreview(ctx, preview[1]!) : await findForm(ctx, page![2]!);
      // a draft has no public page; its preview page sends test answers (SPEC §16)
      const lang = page?.[3];
      const shown =
        row &&
        (preview
          ? true
          : row.handler === page![1] &&
            !row.draft &&
            (lang === undefined ||
              formLanguages(row.definition, row.translations).indexOf(lang) > 0));
      if (!row && page) {
        const moved = await renamedTo(ctx, page[1]!, page[2]!);
        if (moved) return redirect(`${moved}${page[3] ? `/${page[3]}` : ""}${url.search}`, 301);
      }
      // a link or password form's content only with its token or password (SPEC §19); a
      // preview link is a link of its own, but a password is asked on it too (SPEC §23)
      const access = preview && row?.access_mode !== "password" ? "public" : row?.access_mode;
      const peer = (env as Partial<NodeEnv> | undefined)?.incoming?.socket?.remoteAddress;
      const ip = clientAddress(
        peer,
        req.headers.get("x-forwarded-for") ?? undefined,
        ctx.config.trustedProxies,
      );
      const locked =
        shown && access !== "public" ? !(await unlocked(ctx, row, url, req, ip)) : false;
      const status = row ? formStatus(row) : "live";
      const closed = status === "closed" || (preview && row?.access_mode === "closed");
      const model = shown
        ? pageModel(locked ? lockedForm(row.definition) : row.definition, row.handler, {
            status: closed ? "closed" : "live",
            access: access!,
            turnstileSiteKey: ctx.antibot.kind === "turnstile" ? ctx.antibot.siteKey : undefined,
            turnstileScript: ctx.config.turnstileScriptUrl,
            version: row.version,
            id: row.id,
            locked,
            ...(preview ? { preview: preview[1]! } : {}),
            // a locked page shows no content, in no language
            ...(preview || locked
              ? {}
              : {
                  lang,
                  translations: row.translations,
                  origin: ctx.pages.of(row.handler, row.slug),
                }),
          })
        : undefined;
      const { incoming, outgoing } = env as NodeEnv;
      for (const [name, value] of Object.entries(PAGE_CORS)) outgoing.setHeader(name, value);
      // Astro writes the page into Node's response: compressed there (node/compress.ts)
      compressOutgoing(incoming, outgoing);
      const render = await current();
      return new Promise<Response>((done) => {
        render(incoming, outgoing, () => done(new Response("Not found", { status: 404 })), {
          formdown: model,
        }).then(
          () => done(RESPONSE_ALREADY_SENT),
          () => done(new Response("Internal error", { status: 500 })),
        );
      });
    }
    const short = /^\/([A-Za-z0-9]{4,16})\/?$/.exec(path);
    if (short) {
      const code = short[1]!;
      const [row] = await ctx.db.query<{ handler: string; slug: string }>(
        /[A-Z]/.test(code)
          ? "select a.handler, f.slug from forms f join accounts a on a.id = f.account_id where f.short_code = $1"
          : "select a.handler, f.slug from forms f join accounts a on a.id = f.account_id where f.slug = $1",
        [code],
      );
      if (row) return Response.redirect(`${publicUrl(ctx, row)}${url.search}`, 302);
    }
    if (path === "/") return landing();
    return null;
  };
  return Object.assign(handle, {
    html: async (model: PageModel) => pageHtml((await current()) as never, model),
  });
}

/** Pages are public HTML; a protected one needs the respondent's token or password to show more. */
const PAGE_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "x-formdown-access,x-formdown-antibot",
  "access-control-allow-methods": "GET",
};

/** Response.redirect's headers are immutable; Hono's middleware may still add its own. */
const redirect = (location: string, status: number) =>
  new Response(null, { status, headers: { location } });
/**
 * Whether the request may see the form's content: always for a public or closed form; for a link
 * form with the token in the URL (`?access=`), for a password form with the password in the
 * header X-Formdown-Access and an anti-bot token in X-Formdown-Antibot (the locked page's script
 * sends both; SPEC §23). A wrong one counts against the client's and the form's failed attempts,
 * as on submit.
 */
async function unlocked(
  ctx: AppContext,
  row: FormRow,
  url: URL,
  req: Request,
  ip: string | undefined,
): Promise<boolean> {
  if (!isProtected(row.access_mode)) return true;
  const given =
    row.access_mode === "link"
      ? url.searchParams.get("access")
      : req.headers.get("x-formdown-access");
  if (given === null) return false;
  try {
    if (row.access_mode === "password")
      await checkAntiBot(ctx, req.headers.get("x-formdown-antibot"), ip);
    await checkAccess(ctx, row.slug, row, given, ip);
    return true;
  } catch {
    return false;
  }
}

async function serveFile(file: string): Promise<Response | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    const immutable = file.includes(`${join("client", "_astro")}`);
    return new Response(await readFile(file), {
      headers: {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=300",
        "x-content-type-options": "nosniff",
      },
    });
  } catch {
    return null;
  }
}

/** The root: what is running and where to go next (forms themselves live at /@handler/slug). */
function landing(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Formdown</title><link rel="icon" href="/favicon.svg"></head>
<body><main><h1>Formdown is running</h1><p>Forms live at <code>/@&lt;handler&gt;/&lt;slug&gt;</code>, for example <a href="/@me/contact">/@me/contact</a>.</p>
<ul><li>REST API: <a href="/api/openapi.json">/api/openapi.json</a></li><li>MCP: <a href="/.well-known/mcp.json">/.well-known/mcp.json</a></li></ul></main></body></html>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'self'; style-src 'none'; script-src 'none'",
    },
  });
}
