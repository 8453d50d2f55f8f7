// The webhook settings (SPEC §11), read from the environment by functions/config.ts.

export interface WebhookConfig {
  /** A receiver has this long to answer 2xx (FORMDOWN_WEBHOOK_TIMEOUT_MS, default 10 s). */
  timeoutMs: number;
  /**
   * Seconds to wait after each failed attempt (FORMDOWN_WEBHOOK_BACKOFF, comma-separated); after
   * the last one the delivery is `failed`. The default spans 32 hours, over the 24 the SPEC asks.
   */
  backoff: number[];
  /** Loopback/private/link-local/metadata receivers allowed: embedded yes, production no. */
  allowPrivate: boolean;
  /** Deliveries in flight at once per process (FORMDOWN_WEBHOOK_CONCURRENCY, default 256). */
  concurrency: number;
  /**
   * Days a delivered or failed delivery stays in the log (FORMDOWN_WEBHOOK_RETENTION_DAYS,
   * default 30); 0 keeps them for ever.
   */
  retentionDays: number;
  /** Encrypts stored secrets (FORMDOWN_WEBHOOK_KEY); without it, a key kept in the database. */
  key: string | undefined;
}

export const DEFAULT_BACKOFF = [5, 60, 600, 3600, 21600, 86400];

function backoff(text: string | undefined): number[] {
  if (!text) return DEFAULT_BACKOFF;
  const steps = text.split(",").map((s) => Number(s.trim()));
  return steps.every((s) => Number.isFinite(s) && s >= 0) ? steps : DEFAULT_BACKOFF;
}

export function readWebhookConfig(env: Record<string, string | undefined>): WebhookConfig {
  const timeout = Number(env.FORMDOWN_WEBHOOK_TIMEOUT_MS);
  const concurrency = Number(env.FORMDOWN_WEBHOOK_CONCURRENCY);
  const flag = env.FORMDOWN_WEBHOOK_PRIVATE;
  const retention = Number(env.FORMDOWN_WEBHOOK_RETENTION_DAYS ?? 30);
  return {
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
    backoff: backoff(env.FORMDOWN_WEBHOOK_BACKOFF),
    allowPrivate: flag === "1" ? true : flag === "0" ? false : !env.DATABASE_URL,
    concurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 256,
    retentionDays: Number.isFinite(retention) && retention >= 0 ? retention : 30,
    key: env.FORMDOWN_WEBHOOK_KEY || undefined,
  };
}
