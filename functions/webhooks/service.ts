// Webhooks management (SPEC §11): the one code path REST, MCP and the CLI share.
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { ownedFormHead } from "../services/form-view.ts";
import { attemptDelivery } from "./deliver.ts";
import { wakeWebhookSender } from "./handover.ts";
import { type Claimed, NO_RESPONSE, recordOutcomes } from "./queue.ts";
import { boxFor } from "./secrets.ts";
import { newSecret } from "./signing.ts";
import { urlProblem } from "./url-safety.ts";

export const EVENTS = ["response.created", "response.deleted"] as const;
export const MAX_WEBHOOKS = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  created_at: string;
}

function parseInput(input: unknown): { url: string; events: string[] } {
  const body = (input ?? {}) as { url?: unknown; events?: unknown };
  if (typeof input !== "object" || input === null || Array.isArray(input))
    raise("invalid_request", "Send a JSON object: {url, events?}.");
  if (typeof body.url !== "string" || body.url === "")
    raise("validation_failed", "url is required.", {
      details: [{ field: "url", message: "must be an http or https URL" }],
    });
  const events = body.events === undefined ? [...EVENTS] : body.events;
  if (
    !Array.isArray(events) ||
    events.length === 0 ||
    !events.every((e) => (EVENTS as readonly unknown[]).includes(e))
  )
    raise("validation_failed", `events must be a non-empty list of ${EVENTS.join(", ")}.`, {
      details: [{ field: "events", message: `each must be one of ${EVENTS.join(", ")}` }],
    });
  return { url: body.url as string, events: [...new Set(events as string[])] };
}

/** Adds a webhook; the secret is in this answer and never again. */
export async function createWebhook(
  ctx: AppContext,
  account: Account,
  slug: string,
  input: unknown,
) {
  const form = await ownedFormHead(ctx, account, slug);
  const { url, events } = parseInput(input);
  const problem = await urlProblem(url, ctx.config.webhooks.allowPrivate);
  if (problem) raise("invalid_request", problem);
  const secret = newSecret();
  const sealed = await (await boxFor(ctx)).seal(secret);
  // the count and the insert in one statement: two racing creates cannot both pass a limit of 10
  const [row] = await ctx.db.query<WebhookRow>(
    `insert into webhooks (form_id, url, events, secret)
     select $1, $2, $3::text[], $4 where (select count(*) from webhooks where form_id = $1) < $5
     returning id, url, events, created_at`,
    [form.id, url, events, sealed, MAX_WEBHOOKS],
  );
  if (!row) raise("conflict", `A form has at most ${MAX_WEBHOOKS} webhooks; delete one first.`);
  // this instance's submits write deliveries from now on; others see it within the cache's 2 s
  ctx.formCache.forget(form.slug);
  return { ...row!, secret };
}

export async function listWebhooks(ctx: AppContext, account: Account, slug: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const webhooks = await ctx.db.query<WebhookRow>(
    // a preset's URL is a secret of its own (Slack's carries its token): shown by its variable
    `select id, case when kind = 'event' then url else file_key end as url, events, created_at,
            source from webhooks where form_id = $1 order by created_at, id`,
    [form.id],
  );
  return { webhooks };
}

async function ownedWebhook(ctx: AppContext, account: Account, slug: string, id: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const [hook] = UUID.test(id)
    ? await ctx.db.query<WebhookRow & { secret: string; source: string }>(
        "select id, url, events, secret, created_at, source from webhooks where form_id = $1 and id = $2",
        [form.id, id],
      )
    : [];
  if (!hook) return raise("not_found", "No such webhook on this form.");
  return { form, hook };
}

/** Deletes a webhook and (through the trigger) its deliveries. */
export async function deleteWebhook(ctx: AppContext, account: Account, slug: string, id: string) {
  const { form, hook } = await ownedWebhook(ctx, account, slug, id);
  // the file is the truth (SPEC §26): a deleted one would come back with the next deploy
  if (hook.source === "file")
    raise(
      "conflict",
      "This webhook is kept in the form file (notifications.webhooks): remove it there and deploy.",
    );
  await ctx.db.query("delete from webhooks where id = $1", [hook.id]);
  ctx.formCache.forget(form.slug);
}

/** Sends a `webhook.test` now and answers what the receiver said; logged as a delivery. */
export async function testWebhook(ctx: AppContext, account: Account, slug: string, id: string) {
  const { form, hook } = await ownedWebhook(ctx, account, slug, id);
  const [row] = await ctx.db.query<{ id: string; created_at: string }>(
    // due only in an hour: the background sender must not send it a second time meanwhile
    `insert into webhook_deliveries (webhook_id, event, status, attempts, next_attempt_at)
     values ($1, 'webhook.test', 'pending', 1, now() + interval '1 hour')
     returning id, created_at`,
    [hook.id],
  );
  const claimed: Claimed = {
    ...row!,
    webhook_id: hook.id,
    event: "webhook.test",
    response_id: null,
    attempts: 1,
    url: hook.url,
    secret: hook.secret,
    form_id: form.id,
    slug: form.slug,
    title: form.title,
    quiz: false,
    ...NO_RESPONSE,
  };
  const outcome = await attemptDelivery(ctx, claimed);
  // a test is not retried: it says what happens now
  const final = {
    ...outcome,
    status: outcome.status === "delivered" ? "delivered" : "failed",
  } as const;
  await recordOutcomes(ctx.db, [final]);
  return {
    delivered: final.status === "delivered",
    status: outcome.httpStatus,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}

export async function listDeliveries(
  ctx: AppContext,
  account: Account,
  slug: string,
  id: string,
  limit: number,
  offset: number,
  status?: string,
) {
  const { hook } = await ownedWebhook(ctx, account, slug, id);
  const [deliveries, count] = await Promise.all([
    ctx.db.query(
      `select id, event, response_id, status, attempts, last_status, last_error, next_attempt_at, created_at
         from webhook_delivery_log where webhook_id = $1 and ($4::text is null or status = $4)
        order by created_at desc, id desc limit $2 offset $3`,
      [hook.id, limit, offset, status ?? null],
    ),
    ctx.db.query<{ total: number }>(
      `select count(*)::int as total from webhook_delivery_log
        where webhook_id = $1 and ($2::text is null or status = $2)`,
      [hook.id, status ?? null],
    ),
  ]);
  return { deliveries, limit, offset, total: count[0]?.total ?? 0 };
}

/** Queues a delivery again, at once (one more attempt; a failed one fails again after it). */
export async function retryDelivery(
  ctx: AppContext,
  account: Account,
  slug: string,
  id: string,
  deliveryId: string,
) {
  const { hook } = await ownedWebhook(ctx, account, slug, id);
  const [row] = UUID.test(deliveryId)
    ? await ctx.db.query<{ id: string }>(
        // a delivery handed over without a row that got through has only its batch's place
        // (migration …000200): the row written here takes it over in the list
        `with again as (
           update webhook_deliveries set status = 'pending', next_attempt_at = now()
            where id = $1 and webhook_id = $2 and event <> 'webhook.test' returning id),
         placed as (
           insert into webhook_deliveries (id, webhook_id, event, response_id, attempts, created_at)
           select $1, b.webhook_id, 'response.created', u.response_id, 1, to_timestamp(u.ms / 1000.0)
             from webhook_delivered b
             cross join lateral unnest(b.response_ids, b.created_ms) as u(response_id, ms)
            where b.webhook_id = $2 and webhook_delivery_id(b.webhook_id, u.response_id) = $1
              and not exists (select 1 from again)
            limit 1
           on conflict (id) do nothing returning id)
         select id from again union all select id from placed`,
        [deliveryId, hook.id],
      )
    : [];
  if (!row) raise("not_found", "No such delivery of this webhook (tests are not retried).");
  wakeWebhookSender(ctx);
  return { id: row!.id, status: "pending" as const };
}
