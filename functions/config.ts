import { normaliseBaseUrl } from "../src/core/base-url.ts";
import { parseTrustedProxies } from "./http/client-address.ts";
import { readWebhookConfig } from "./webhooks/config.ts";

export type Env = Record<string, string | undefined>;

const int = (v: string | undefined, fallback: number) => {
  const n = v === undefined || v === "" ? Number.NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};
const opt = (v: string | undefined) => (v === undefined || v === "" ? undefined : v);

/** Every setting, read once from the environment (SPEC §2). Nothing else reads process.env. */
export type Config = ReturnType<typeof readConfig>;

/** Throws one line naming the variable when a setting is malformed (start-up stops on it). */
export function readConfig(env: Env) {
  const port = int(env.PORT, 4321);
  const local = `http://localhost:${port}`;
  const baseUrl = normaliseBaseUrl("FORMDOWN_BASE_URL", env.FORMDOWN_BASE_URL) ?? local;
  return {
    port,
    host: opt(env.HOST) ?? "127.0.0.1",
    baseUrl,
    publicBaseUrl:
      normaliseBaseUrl("FORMDOWN_PUBLIC_BASE_URL", env.FORMDOWN_PUBLIC_BASE_URL) ?? baseUrl,
    databaseUrl: opt(env.DATABASE_URL),
    dataDir: opt(env.FORMDOWN_DATA_DIR) ?? ".formdown",
    repoDir: opt(env.FORMDOWN_REPO_DIR) ?? ".",
    handler: opt(env.FORMDOWN_HANDLER) ?? "me",
    adminToken: opt(env.FORMDOWN_ADMIN_TOKEN),
    rateSubmit: int(env.FORMDOWN_RATE_SUBMIT, 600),
    rateApi: int(env.FORMDOWN_RATE_API, 1200),
    /** Failed password/link attempts a minute per form, any address (SPEC §19); 0 turns it off. */
    rateAccess: int(env.FORMDOWN_RATE_ACCESS, 60),
    /** Seconds an upload no submission references is kept (FORMDOWN_UPLOAD_TTL, default 24 h). */
    uploadTtl: int(env.FORMDOWN_UPLOAD_TTL, 86_400),
    /** How often (ms, at most 1,000) an instance shares its rate-limit counts through the database. */
    rateSyncMs: Math.min(1000, Math.max(10, int(env.FORMDOWN_RATE_SYNC_MS, 1000))),
    /** Most plain submits one INSERT carries (services/submit-write.ts); 1 sends each alone. */
    submitBatch: Math.max(1, int(env.FORMDOWN_SUBMIT_BATCH, 64)),
    /** Seconds a page built from an earlier version may still submit against it (SPEC §16). */
    versionGrace: Math.max(0, int(env.FORMDOWN_VERSION_GRACE, 86_400)),
    turnstileSiteKey: opt(env.TURNSTILE_SITE_KEY),
    turnstileSecretKey: opt(env.TURNSTILE_SECRET_KEY),
    turnstileVerifyUrl:
      opt(env.TURNSTILE_VERIFY_URL) ?? "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    /** The widget script pages load (TURNSTILE_SCRIPT_URL overrides it, for tests). */
    turnstileScriptUrl:
      opt(env.TURNSTILE_SCRIPT_URL) ??
      "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    postmarkToken: opt(env.POSTMARK_SERVER_TOKEN),
    postmarkApiUrl: opt(env.POSTMARK_API_URL),
    /** SPEC §26: mail through any SMTP server (nodemailer), when Postmark is not configured. */
    smtpUrl: opt(env.SMTP_URL),
    /** An environment variable a form file names (SPEC §26: webhook secrets and preset URLs). */
    fileEnv: (name: string) => opt(env[name]),
    mailFrom: opt(env.FORMDOWN_MAIL_FROM) ?? "Formdown <formdown@localhost>",
    githubToken: opt(env.GITHUB_TOKEN),
    githubRepository: opt(env.GITHUB_REPOSITORY),
    githubApiUrl: opt(env.GITHUB_API_URL),
    supabaseUrl: opt(env.SUPABASE_URL),
    supabaseServiceKey: opt(env.SUPABASE_SERVICE_ROLE_KEY),
    /** Embedded mode: PGlite, accounts created for repository forms, local uploads. */
    embedded: !opt(env.DATABASE_URL),
    /** FORMDOWN_SECRET: the HMAC key of signed view links; unset, one is generated and kept in the database. */
    secret: opt(env.FORMDOWN_SECRET),
    /** FORMDOWN_NOW: a fixed clock (ISO instant) for the digest scheduler, for tests. */
    now: opt(env.FORMDOWN_NOW),
    webhooks: readWebhookConfig(env),
    /** Postgres: seconds a statement may run (0: no limit); COPY exports and migrations exempt. */
    dbStatementTimeout: int(env.FORMDOWN_DB_STATEMENT_TIMEOUT, 4),
    /** Who the client is behind proxies (FORMDOWN_TRUSTED_PROXIES, functions/http/client-address.ts). */
    trustedProxies: parseTrustedProxies(env.FORMDOWN_TRUSTED_PROXIES),
    /** On SIGTERM/SIGINT, how long requests in flight and attempts under way may finish (ms). */
    drainMs: int(env.FORMDOWN_DRAIN_MS, 10_000),
    /** How long one run of the scheduled drain (functions/deno/drain.ts) keeps sending (ms). */
    drainBudgetMs: int(env.FORMDOWN_DRAIN_BUDGET_MS, 50_000),
    /** Which instance this is (SPEC §22; health, logs): FORMDOWN_INSTANCE, or a name made at start. */
    instance: opt(env.FORMDOWN_INSTANCE) ?? `i-${crypto.randomUUID().slice(0, 8)}`,
  };
}
