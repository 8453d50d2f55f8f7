import { isLocalOrigin } from "../../src/core/base-url.ts";
import type { Config } from "../config.ts";
import type { AppContext } from "../context.ts";

/**
 * What an operator must hear about at start-up and from `formdown doctor` (SPEC §17): links in
 * emails, short URLs and webhooks that would point at this machine in production.
 */
export function configWarnings(config: Config): string[] {
  if (config.embedded) return [];
  const warnings: string[] = [];
  if (isLocalOrigin(config.baseUrl))
    warnings.push(
      `FORMDOWN_BASE_URL is ${config.baseUrl}: links in emails and short URLs would point at this machine; set it to the API's public origin`,
    );
  if (isLocalOrigin(config.publicBaseUrl) && config.publicBaseUrl !== config.baseUrl)
    warnings.push(
      `FORMDOWN_PUBLIC_BASE_URL is ${config.publicBaseUrl}: form links would point at this machine; set it to the pages' public origin`,
    );
  return warnings;
}

/**
 * No mail provider (embedded): emails are composed and kept in the outbox, never sent. `doctor`
 * says so in those words; the outbox lists them as `kept`.
 */
export function mailWarnings(ctx: Pick<AppContext, "mailer">): string[] {
  return ctx.mailer
    ? []
    : [
        "emails are kept, not sent: no mail provider is set (POSTMARK_SERVER_TOKEN); `formdown outbox` shows them",
      ];
}

/** Emails and webhook deliveries due for more than 5 minutes: no sender or drain is running. */
export async function overdue(ctx: AppContext): Promise<{ emails: number; deliveries: number }> {
  const [row] = await ctx.db.query<{ emails: number; deliveries: number }>(
    `select (select count(*)::int from (select 1 from outbox where status = 'pending'
               and next_attempt_at < now() - interval '5 minutes' limit 10000) e) as emails,
            (select count(*)::int from (select 1 from webhook_deliveries where status = 'pending'
               and next_attempt_at < now() - interval '5 minutes' limit 10000) d) as deliveries`,
  );
  return { emails: Number(row?.emails ?? 0), deliveries: Number(row?.deliveries ?? 0) };
}
