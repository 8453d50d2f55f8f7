// Webhooks kept in the form file (SPEC §26): after each deploy of a form, its `source = 'file'`
// webhooks are made to match `notifications.webhooks` — added, changed, and removed when the
// file no longer names them; webhooks added through the API are left alone.

import type { FieldIssue } from "../../src/core/errors.ts";
import { raise } from "../../src/core/errors.ts";
import type { FileWebhook, Form } from "../../src/core/schema.ts";
import type { AppContext } from "../context.ts";
import { boxFor } from "./secrets.ts";
import { EVENTS } from "./service.ts";
import { newSecret } from "./signing.ts";
import { urlProblem } from "./url-safety.ts";

/** The server's own settings: a form file may not name them (their values would leave with it). */
const RESERVED = /^(FORMDOWN_|DATABASE_|POSTMARK_|SMTP_|GITHUB_|SUPABASE_|TURNSTILE_|PG)/;

/**
 * The start of every variable a form of @handler may name: its handler in capitals, `-` as `_`
 * (`@acme-co` → `ACME_CO_`). Every account shares the server's environment: without it another
 * account's form signed its own deliveries with this one's secret, or posted into its Slack.
 */
export const envPrefix = (handler: string) => `${handler.toUpperCase().replaceAll("-", "_")}_`;

/**
 * Why @handler may not name the variable, or null: it is outside the account's prefix, or under a
 * longer prefix another account holds (`ACME_CO_URL` is @acme-co's, not @acme's).
 */
async function notOwned(ctx: AppContext, handler: string, name: string): Promise<string | null> {
  const prefix = envPrefix(handler);
  const refused = (whose: string) =>
    `${name} is not this account's: a form of @${handler} names only variables that start with ${prefix}${whose}`;
  if (!name.startsWith(prefix)) return refused("");
  const [longer] = await ctx.db.query<{ handler: string }>(
    `select handler from accounts where length(handler) > $1
        and starts_with($2, upper(replace(handler, '-', '_')) || '_') order by handler limit 1`,
    [handler.length, name],
  );
  return longer ? refused(` (and not @${longer.handler}'s)`) : null;
}

interface Desired {
  key: string;
  kind: "event" | "slack" | "sheet";
  url: string;
  events: string[];
  /** The signing secret from the environment; presets are signed with one of their own. */
  secret: string | null;
}

async function desired(
  ctx: AppContext,
  handler: string,
  hooks: readonly FileWebhook[],
): Promise<Desired[]> {
  const issues: FieldIssue[] = [];
  const out: Desired[] = [];
  const read = async (at: string, name: string) => {
    if (RESERVED.test(name)) {
      issues.push({ field: at, message: `${name} is one of the server's own settings` });
      return null;
    }
    const foreign = await notOwned(ctx, handler, name);
    if (foreign) {
      issues.push({ field: at, message: foreign });
      return null;
    }
    const value = ctx.config.fileEnv(name);
    if (!value) issues.push({ field: at, message: `${name} is not set on the server` });
    return value ?? null;
  };
  for (const [i, hook] of hooks.entries()) {
    const at = `notifications.webhooks[${i}]`;
    let item: Desired | null = null;
    if ("url" in hook) {
      const secret = await read(`${at}.secret_env`, hook.secret_env);
      if (secret)
        item = {
          key: `url:${hook.url}`,
          kind: "event",
          url: hook.url,
          events: [...new Set(hook.events ?? EVENTS)],
          secret,
        };
    } else {
      const kind = "slack" in hook ? "slack" : "sheet";
      const name = "slack" in hook ? hook.slack : hook.sheet;
      const url = await read(`${at}.${kind}`, name);
      if (url)
        item = { key: `${kind}:${name}`, kind, url, events: ["response.created"], secret: null };
    }
    if (!item) continue;
    const problem = await urlProblem(item.url, ctx.config.webhooks.allowPrivate);
    if (problem) issues.push({ field: at, message: problem });
    else if (out.some((d) => d.key === item.key))
      issues.push({ field: at, message: "names the same webhook twice" });
    else out.push(item);
  }
  if (issues.length > 0)
    raise("validation_failed", "The form file's webhooks cannot be set up.", { details: issues });
  return out;
}

/**
 * Checks the file's webhooks before the form is written (a missing environment variable refuses
 * the deploy), and returns the step that applies them once it is.
 */
export async function prepareFileWebhooks(ctx: AppContext, handler: string, form: Form) {
  const want = await desired(ctx, handler, form.notifications?.webhooks ?? []);
  return async (formId: string) => {
    const had = await ctx.db.query<{ id: string; file_key: string }>(
      "select id, file_key from webhooks where form_id = $1 and source = 'file'",
      [formId],
    );
    const keys = new Set(want.map((d) => d.key));
    const gone = had.filter((h) => !keys.has(h.file_key)).map((h) => h.id);
    // the trigger of migration …000100 takes their deliveries with them
    if (gone.length > 0)
      await ctx.db.query("delete from webhooks where id = any($1::uuid[])", [gone]);
    const box = await boxFor(ctx);
    for (const d of want) {
      const sealed = await box.seal(d.secret ?? newSecret());
      await ctx.db.query(
        `insert into webhooks (form_id, url, events, secret, source, kind, file_key)
         values ($1, $2, $3::text[], $4, 'file', $5, $6)
         on conflict (form_id, file_key) where file_key is not null
         do update set url = excluded.url, events = excluded.events, kind = excluded.kind,
           secret = case when $7 then excluded.secret else webhooks.secret end`,
        [formId, d.url, d.events, sealed, d.kind, d.key, d.secret !== null],
      );
    }
    if (gone.length > 0 || want.length > 0) ctx.formCache.forget(form.slug);
  };
}
