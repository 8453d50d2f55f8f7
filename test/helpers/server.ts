import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../functions/config.ts";
import type { AppContext, Log, Mailer } from "../../functions/context.ts";
import { type RunningServer, startServer } from "../../functions/node/server.ts";
import { createAccount } from "../../functions/services/accounts.ts";
import { type DbKind, freshDb } from "./db.ts";

export interface TestServer {
  url: string;
  apiKey: string;
  handler: string;
  ctx: AppContext;
  repoDir: string;
  dataDir: string;
  server: RunningServer;
  /** Another account's key, for ownership checks. */
  otherKey: () => Promise<string>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  db?: DbKind;
  env?: Env;
  /** A git repository as FORMDOWN_REPO_DIR (default true). */
  git?: boolean;
  mailer?: Mailer | null;
  log?: Log;
  /** Run the in-process outbox sender (default false in tests: suites drain explicitly). */
  outboxSender?: boolean;
  /** Run the in-process webhook sender (default false, so other suites' statements stay their own). */
  webhookSender?: boolean;
  /** Deploy what is committed to the repository while running, polling every N ms (default off). */
  watchRepository?: number;
}

// a receiver that fails is what many webhook suites arrange: its one line per failed attempt
// (webhooks/deliver.ts) is asserted where it matters (delivery.test.ts), not printed everywhere
const quiet: Log = {
  info: () => {},
  error: (m, e) => {
    if (!m.startsWith("webhook delivery ")) console.error(m, e);
  },
};

/** The tests' servers by origin: what `testFetch` answers in this process. */
const inProcess = new Map<string, RunningServer>();
/** The peer of a request answered in this process, as the socket would give it (loopback). */
const LOOPBACK = { incoming: { socket: { remoteAddress: "127.0.0.1" } } };

/**
 * fetch for the tests' API calls: a test server's `/api/…` is answered by the server's own
 * handler in this process (RunningServer.fetch: compression and the graceful-stop gate
 * included), as its socket would answer it, without a connection; anything else (pages, which
 * Astro writes to the socket, other servers, receivers) over the network. Suites whose point is
 * the network itself (compression, keep-alive, body limits read from the socket, a graceful
 * stop) call the global fetch.
 */
export const testFetch = async (input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input, init);
  const url = new URL(req.url);
  const server = url.pathname.startsWith("/api/") ? inProcess.get(url.origin) : undefined;
  if (!server) return fetch(req);
  if (!req.headers.has("host")) req.headers.set("host", url.host);
  return server.fetch(req, LOOPBACK);
};

const GIT_TEMPLATE = resolve(import.meta.dirname, "../../node_modules/.cache/formdown/git-init");

/**
 * A new repository's `.git`, made by `git init` once and copied for each server: a child process
 * started from a test worker that holds databases and a browser costs tens of milliseconds of
 * forking alone. (Made under another name, then renamed: parallel workers never copy half of it.)
 */
async function gitInit(repoDir: string): Promise<void> {
  if (!existsSync(GIT_TEMPLATE)) {
    const part = `${GIT_TEMPLATE}.${process.pid}.part`;
    await mkdir(part, { recursive: true });
    execFileSync("git", ["init", "-q", part]);
    await rename(part, GIT_TEMPLATE).catch(() => rm(part, { recursive: true, force: true }));
  }
  await cp(join(GIT_TEMPLATE, ".git"), join(repoDir, ".git"), { recursive: true });
}

/** A real server on a free port, its own database, data dir and repository; an account + key. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { db, drop } = await freshDb(options.db ?? "pglite");
  const root = await mkdtemp(join(tmpdir(), "formdown-test-"));
  const repoDir = join(root, "repo");
  const dataDir = join(root, "data");
  await Promise.all([mkdir(repoDir), mkdir(dataDir)]);
  if (options.git !== false) await gitInit(repoDir);
  const env: Env = {
    FORMDOWN_REPO_DIR: repoDir,
    FORMDOWN_DATA_DIR: dataDir,
    FORMDOWN_RATE_SUBMIT: "0",
    FORMDOWN_RATE_API: "0",
    // a suite's server closes at once: no kept-alive connection or hanging receiver waited for
    FORMDOWN_DRAIN_MS: "0",
    ...options.env,
  };
  const server = await startServer({
    env,
    port: 0,
    host: "127.0.0.1",
    db,
    log: options.log ?? quiet,
    skipRepositoryForms: true,
    outboxSender: options.outboxSender ?? false,
    webhookSender: options.webhookSender ?? false,
    watchRepository: options.watchRepository ?? false,
    ...(options.mailer !== undefined ? { mailer: options.mailer } : {}),
  });
  // startServer created the first account (`me`) in embedded mode with the PGlite/PG db given
  let me = server.firstKey;
  if (!me) {
    const created = await createAccount(server.ctx, { handler: "me" });
    me = { handler: created.handler, key: created.api_key };
  }
  if (process.env.TEST_OVER_SOCKETS !== "1") inProcess.set(server.url, server);
  let n = 0;
  return {
    url: server.url,
    apiKey: me.key,
    handler: me.handler,
    ctx: server.ctx,
    repoDir,
    dataDir,
    server,
    async otherKey() {
      const created = await createAccount(server.ctx, { handler: `other-${Date.now()}-${n++}` });
      return created.api_key;
    },
    async close() {
      inProcess.delete(server.url);
      await server.close().catch(() => {});
      await drop().catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
}
