import { join, resolve } from "node:path";
import { createAltcha } from "./antibot/altcha.ts";
import { createTurnstile } from "./antibot/turnstile.ts";
import { type Config, type Env, readConfig } from "./config.ts";
import type { AppContext, FormRepository, Log, Mailer } from "./context.ts";
import { randomToken } from "./crypto.ts";
import { type Db, OUTAGE_WAIT_MS, openPglite, openPostgres, wrapPglite } from "./db/db.ts";
import { lockDataDir } from "./db/lock.ts";
import { migrate } from "./db/migrate.ts";
import { rateLimiter } from "./limiter/rate-limiter.ts";
import { pageOrigins } from "./links/page-origins.ts";
import { gitRepository, hasRemote, isGitTree, readOnly } from "./repo/local-git.ts";
import { plainRepository } from "./repo/plain.ts";
import { formCache } from "./services/form-cache.ts";
import { localStorage } from "./storage/local.ts";

/**
 * One JSON object per line (SPEC §22): `time`, `level`, `msg`, and what the caller adds (a
 * `request_id` on every 5xx); an error's stack is a field, never lines of its own.
 */
const consoleLog: Log = {
  info: (msg, fields) =>
    process.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: "info", msg, ...fields })}\n`,
    ),
  error: (msg, error, fields) =>
    process.stderr.write(
      `${JSON.stringify({
        time: new Date().toISOString(),
        level: "error",
        msg,
        ...fields,
        ...(error instanceof Error
          ? { error: error.message, stack: error.stack }
          : error !== undefined && error !== ""
            ? { error: String(error) }
            : {}),
      })}\n`,
    ),
};

export interface ComposeOptions {
  /** A ready database (tests); otherwise DATABASE_URL or PGlite in the data dir. */
  db?: Db;
  log?: Log;
  /** Overrides for ports (tests, or other runtimes). */
  repo?: FormRepository;
  mailer?: Mailer | null;
}

async function openDb(config: Config, log: Log): Promise<Db> {
  if (config.databaseUrl)
    return openPostgres(config.databaseUrl, {
      statementTimeout: config.dbStatementTimeout,
      // one line when the database goes away and one when it is back, not one per request
      onOutage: (up, error) => {
        if (up) log.info("The database answers again.");
        else
          log.error(
            `The database cannot be reached (${(error as { code?: string })?.code ?? "error"}); requests wait up to ${OUTAGE_WAIT_MS / 1000} s for it, then get 503 unavailable.`,
          );
      },
    });
  const dir = resolve(config.dataDir);
  const release = lockDataDir(dir);
  try {
    return wrapPglite(await openPglite(join(dir, "pgdata")), release);
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * A secret the service keeps for itself in the database, shared by every instance: read, and
 * written only the first time (one round trip on every later start).
 */
async function serverSecret(db: Db, name: string): Promise<string> {
  const read = async () =>
    (
      await db.query<{ value: string }>("select value from server_secrets where name = $1", [name])
    )[0];
  const kept = await read();
  if (kept) return kept.value;
  await db.query(
    "insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing",
    [name, randomToken(32)],
  );
  return (await read())!.value;
}

async function chooseRepo(config: Config, log: Log): Promise<FormRepository> {
  if (config.githubToken && config.githubRepository) {
    const { githubRepository } = await import("./repo/github.ts");
    return githubRepository({
      token: config.githubToken,
      repository: config.githubRepository,
      apiUrl: config.githubApiUrl,
    });
  }
  if (await isGitTree(config.repoDir)) {
    // SPEC §22 "Who writes where": a production checkout that pulls from a remote is the remote's;
    // the server reads it and never commits into it (a host's `git pull` would then diverge)
    const pulled = !config.embedded && (await hasRemote(config.repoDir));
    if (pulled)
      log.info(
        `Note: ${resolve(config.repoDir)} pulls from a remote: the server reads it and commits nothing to it.`,
      );
    return pulled ? readOnly(gitRepository(config.repoDir)) : gitRepository(config.repoDir);
  }
  log.info(
    `Note: ${resolve(config.repoDir)} is not a git working tree; form files are written without commits.`,
  );
  return plainRepository(config.repoDir);
}

/** The composition root: reads the environment once and picks one adapter per port. */
export async function createContext(env: Env, options: ComposeOptions = {}): Promise<AppContext> {
  const config = readConfig(env);
  const log = options.log ?? consoleLog;
  // the repository is looked at (a `git` process) while the database connects and migrates
  const repoReady = options.repo ? Promise.resolve(options.repo) : chooseRepo(config, log);
  repoReady.catch(() => {}); // awaited below; a failure that comes first is the one reported
  const db = options.db ?? (await openDb(config, log));
  try {
    await migrate(db);
    const antibot = config.turnstileSecretKey
      ? createTurnstile({
          secret: config.turnstileSecretKey,
          verifyUrl: config.turnstileVerifyUrl,
          ...(config.turnstileSiteKey ? { siteKey: config.turnstileSiteKey } : {}),
        })
      : createAltcha(db, await serverSecret(db, "altcha"));
    // optional adapters load only when configured (each client library costs memory)
    const storage =
      config.supabaseUrl && config.supabaseServiceKey
        ? (await import("./storage/supabase.ts")).supabaseStorage(
            config.supabaseUrl,
            config.supabaseServiceKey,
          )
        : localStorage(join(config.dataDir, "uploads"));
    const repo = await repoReady;
    const mailer = options.mailer !== undefined ? options.mailer : await chooseMailer(config);
    const limiter = rateLimiter(db, {
      intervalMs: config.rateSyncMs,
      share: db.kind === "postgres",
      log,
    });
    const pages = pageOrigins(config, log);
    return {
      config,
      db,
      antibot,
      storage,
      repo,
      mailer,
      log,
      formCache: formCache(),
      limiter,
      pages,
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Postmark when its token is set, else SMTP_URL's server, else none (the outbox keeps the mail). */
async function chooseMailer(config: Config): Promise<Mailer | null> {
  if (config.postmarkToken) {
    const { postmarkMailer } = await import("./mail/postmark-mailer.ts");
    return postmarkMailer(config);
  }
  if (config.smtpUrl) {
    const { smtpMailer } = await import("./mail/smtp-mailer.ts");
    return smtpMailer(config);
  }
  return null;
}
