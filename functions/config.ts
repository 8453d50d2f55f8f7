import { normaliseBaseUrl } from "../src/core/base-url.ts";
import { parseTrustedProxies, type TrustedProxies } from "./http/client-address.ts";
import { readWebhookConfig, type WebhookConfig } from "./webhooks/config.ts";

/** Every setting, read once from the environment (SPEC §2). Nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  repoDir: string;
  handler: string;
  adminToken: string | undefined;
  rateSubmit: number;
  rateApi: number;
  /** Failed password/link attempts a minute per form, any address (SPEC §19); 0 turns it off. */
  rateAccess: number;
  /** Seconds an upload no submission references is kept (FORMDOWN_UPLOAD_TTL, default 24 h). */
  uploadTtl: number;
  /** How often (ms, at most 1,000) an instance shares its rate-limit counts through the database. */
  rateSyncMs: number;
  /** Most plain submits one INSERT carries (services/submit-write.ts); 1 sends each alone. */
  submitBatch: number;
  /** Seconds a page built from an earlier version may still submit against it (SPEC §16). */
  versionGrace: number;
  turnstileSiteKey: string | undefined;
  turnstileSecretKey: string | undefined;
  turnstileVerifyUrl: string;
  /** The widget script pages load (TURNSTILE_SCRIPT_URL overrides it, for tests). */
  turnstileScriptUrl: string;
  postmarkToken: string | undefined;
  postmarkApiUrl: string | undefined;
  /** SPEC §26: mail through any SMTP server (nodemailer), when Postmark is not configured. */
  smtpUrl: string | undefined;
  /** An environment variable a form file names (SPEC §26: webhook secrets and preset URLs). */
  fileEnv: (name: string) => string | undefined;
  mailFrom: string;
  githubToken: string | undefined;
  githubRepository: string | undefined;
  githubApiUrl: string | undefined;
  supabaseUrl: string | undefined;
  supabaseServiceKey: string | undefined;
  /** Embedded mode: PGlite, accounts created for repository forms, local uploads. */
  embedded: boolean;
  /** FORMDOWN_SECRET: the HMAC key of signed view links; unset, one is generated and kept in the database. */
  secret: string | undefined;
  /** FORMDOWN_NOW: a fixed clock (ISO instant) for the digest scheduler, for tests. */
  now: string | undefined;
  webhooks: WebhookConfig;
  /** Postgres: seconds a statement may run (0: no limit); COPY exports and migrations exempt. */
  dbStatementTimeout: number;
  /** Who the client is behind proxies (FORMDOWN_TRUSTED_PROXIES, functions/http/client-address.ts). */
  trustedProxies: TrustedProxies;
  /** On SIGTERM/SIGINT, how long requests in flight and attempts under way may finish (ms). */
  drainMs: number;
  /** How long one run of the scheduled drain (functions/deno/drain.ts) keeps sending (ms). */
  drainBudgetMs: number;
  /** Which instance this is (SPEC §22; health, logs): FORMDOWN_INSTANCE, or a name made at start. */
  instance: string;
}

export type Env = Record<string, string | undefined>;

const int = (v: string | undefined, fallback: number) => {
  const n = v === undefined || v === "" ? Number.NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};
const opt = (v: string | undefined) => (v === undefined || v === "" ? undefined : v);

/** Throws one line naming the variable when a setting is malformed (start-up stops on it). */
export function readConfig(env: Env): Config {
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
    rateAccess: int(env.FORMDOWN_RATE_ACCESS, 60),
    uploadTtl: int(env.FORMDOWN_UPLOAD_TTL, 86_400),
    rateSyncMs: Math.min(1000, Math.max(10, int(env.FORMDOWN_RATE_SYNC_MS, 1000))),
    submitBatch: Math.max(1, int(env.FORMDOWN_SUBMIT_BATCH, 64)),
    versionGrace: Math.max(0, int(env.FORMDOWN_VERSION_GRACE, 86_400)),
    turnstileSiteKey: opt(env.TURNSTILE_SITE_KEY),
    turnstileSecretKey: opt(env.TURNSTILE_SECRET_KEY),
    turnstileVerifyUrl:
      opt(env.TURNSTILE_VERIFY_URL) ?? "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    turnstileScriptUrl:
      opt(env.TURNSTILE_SCRIPT_URL) ??
      "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    postmarkToken: opt(env.POSTMARK_SERVER_TOKEN),
    postmarkApiUrl: opt(env.POSTMARK_API_URL),
    smtpUrl: opt(env.SMTP_URL),
    fileEnv: (name) => opt(env[name]),
    mailFrom: opt(env.FORMDOWN_MAIL_FROM) ?? "Formdown <formdown@localhost>",
    githubToken: opt(env.GITHUB_TOKEN),
    githubRepository: opt(env.GITHUB_REPOSITORY),
    githubApiUrl: opt(env.GITHUB_API_URL),
    supabaseUrl: opt(env.SUPABASE_URL),
    supabaseServiceKey: opt(env.SUPABASE_SERVICE_ROLE_KEY),
    embedded: !opt(env.DATABASE_URL),
    secret: opt(env.FORMDOWN_SECRET),
    now: opt(env.FORMDOWN_NOW),
    webhooks: readWebhookConfig(env),
    dbStatementTimeout: int(env.FORMDOWN_DB_STATEMENT_TIMEOUT, 4),
    trustedProxies: parseTrustedProxies(env.FORMDOWN_TRUSTED_PROXIES),
    drainMs: int(env.FORMDOWN_DRAIN_MS, 10_000),
    drainBudgetMs: int(env.FORMDOWN_DRAIN_BUDGET_MS, 50_000),
    instance: opt(env.FORMDOWN_INSTANCE) ?? `i-${crypto.randomUUID().slice(0, 8)}`,
  };
}
