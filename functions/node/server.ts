import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../app.ts";
import { teamUpkeep } from "../audit/upkeep.ts";
import { type ComposeOptions, createContext } from "../compose.ts";
import type { Env } from "../config.ts";
import type { AppContext } from "../context.ts";
import { embeddedUpkeep } from "../db/embedded-upkeep.ts";
import { unavailableFailure, unavailablePage } from "../db/outage.ts";
import { drainingGate, within } from "../http/draining.ts";
import { refuseMalformedPath } from "../http/path-guard.ts";
import { startOutboxSender } from "../mail/sender.ts";
import { sweepRateLimits } from "../services/rate-limit.ts";
import { enforceRetention } from "../services/retention.ts";
import { sweepUploads } from "../services/uploads.ts";
import { renewStorageProbe, sharedStorageProblem } from "../storage/shared-check.ts";
import { webhookKeyProblem } from "../webhooks/key-check.ts";
import { startWebhookSender } from "../webhooks/sender.ts";
import { ensureFirstAccount, reconcileRepository } from "./bootstrap.ts";
import { CLI_PATH, cliBundleResponse } from "./cli-bundle.ts";
import { answerParserErrors } from "./client-error.ts";
import { withCompression } from "./compress.ts";
import { trackConnections } from "./graceful.ts";
import { createPagesHandler } from "./pages.ts";
import { guardProcess } from "./process-guard.ts";
import { createUiApps } from "./ui-apps.ts";
import { watchBranchHead } from "./watch-head.ts";

export interface StartOptions extends ComposeOptions {
  env: Env;
  /** Overrides PORT (0 picks a free port). */
  port?: number;
  host?: string;
  /** Skip deploying the repository's form files at start-up. */
  skipRepositoryForms?: boolean;
  /** Run the in-process outbox sender (default true). */
  outboxSender?: boolean;
  /** Run the in-process webhook sender (default true). */
  webhookSender?: boolean;
  /**
   * Deploy form files committed to the local git repository while running (default: embedded
   * mode with a git repository and the start-up deploy on); the poll interval in ms, or false.
   */
  watchRepository?: number | false;
}

export interface RunningServer {
  url: string;
  ctx: AppContext;
  firstKey: { handler: string; key: string } | null;
  /**
   * What the socket's requests are answered by (compression and the graceful-stop gate
   * included), for a caller in this process: the tests' API client, without a socket.
   */
  fetch(req: Request, env?: unknown): Promise<Response>;
  /**
   * The graceful stop (SPEC §17): stops accepting, serves what still arrives on a kept-alive
   * connection with `Connection: close` (the health probe answers 503), lets those in flight finish (up to FORMDOWN_DRAIN_MS), records every attempt's and email's outcome, then
   * closes the database.
   */
  close(): Promise<void>;
}

/** Starts the whole service in this process: database, API, pages, background sweeps. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  // an error a handler missed is logged and survived, never the end of the process (SPEC §23)
  guardProcess();
  const ctx = await createContext(options.env, options);
  // an empty database gets its first account unless accounts come from the admin API
  const firstKey =
    ctx.config.embedded || !ctx.config.adminToken ? await ensureFirstAccount(ctx) : null;
  // a repository that cannot be read now (GitHub out of reach) leaves the stored forms as they are
  const reconciled = options.skipRepositoryForms
    ? null
    : await reconcileRepository(ctx).catch((error: unknown) => {
        ctx.log.error(
          "The repository's forms were not read; the stored forms stay as they were",
          error,
        );
        return null;
      });
  if (reconciled) {
    const { deployed, invalid, results } = reconciled;
    const closed = results.filter((r) => r.result === "closed").length;
    if (deployed.length + invalid.length > 0) {
      ctx.log.info(
        `Repository forms: ${deployed.length} live${closed ? `, ${closed} closed (file removed)` : ""}${invalid.length ? `, ${invalid.length} invalid (see above)` : ""}.`,
      );
    }
  }
  // a lost or changed webhook key is named once at start, not found out delivery by delivery
  const keyProblem = await webhookKeyProblem(ctx).catch(() => null);
  if (keyProblem) ctx.log.error(keyProblem);
  // so are uploads kept where another running instance cannot read them (storage/shared-check.ts)
  const storageProblem = await sharedStorageProblem(ctx).catch((error: unknown) => {
    ctx.log.error("The upload storage could not be checked", error);
    return null;
  });
  if (storageProblem) ctx.log.error(storageProblem);
  // which forms the static host holds pages for, so the first links name it (links/page-origins.ts)
  void ctx.pages.refresh();
  const app = createApp(ctx);
  const pages = await createPagesHandler(ctx);
  ctx.apps = createUiApps(pages);
  const handle = async (req: Request, env: unknown) => {
    // the pages route before the app: a path that does not decode is refused here too
    const malformed = refuseMalformedPath(req.url);
    if (malformed) return malformed;
    // the CLI as one file, for forms-only repositories (`formdown init`, `formdown self-update`)
    if ((req.method === "GET" || req.method === "HEAD") && new URL(req.url).pathname === CLI_PATH)
      return cliBundleResponse(req.method);
    if (pages && !new URL(req.url).pathname.startsWith("/api/")) {
      const page = await pages(req, env).catch((error: unknown) => {
        // a form page while the database is out of reach: a short page asking to come back
        if (unavailableFailure(error) === null) throw error;
        return unavailablePage();
      });
      if (page) return page;
    }
    return app.fetch(req, env);
  };
  // text answers compressed for a client that accepts it (node/compress.ts)
  const gate = drainingGate(withCompression(handle));
  const fetch = gate.fetch;
  const port = options.port ?? ctx.config.port;
  const host = options.host ?? ctx.config.host;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch, port, hostname: host }, () => resolve(s));
    s.once("error", reject);
  });
  answerParserErrors(server as Server);
  const closeConnections = trackConnections(server as Server);
  // Node closes an idle keep-alive connection after 5 s; a client (or proxy) that sends on it in
  // that very moment gets ECONNRESET — on a busy machine, often. A minute is the usual advice
  // (longer than a load balancer's idle timeout); headersTimeout must stay above it.
  (server as Server).keepAliveTimeout = 65_000;
  (server as Server).headersTimeout = 66_000;
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  // with PORT 0 (tests) the addresses are known only now
  if (!options.env.FORMDOWN_BASE_URL && port === 0) ctx.config.baseUrl = url;
  if (!options.env.FORMDOWN_PUBLIC_BASE_URL && port === 0)
    ctx.config.publicBaseUrl = ctx.config.baseUrl;
  const sweeps = setInterval(() => {
    // an unreachable database is logged once by its adapter, not by every sweep
    const failed = (what: string) => (e: unknown) =>
      unavailableFailure(e) === null && ctx.log.error(`${what} sweep failed`, e);
    sweepRateLimits(ctx.db).catch(failed("rate-limit"));
    sweepUploads(ctx).catch(failed("upload"));
    renewStorageProbe(ctx).catch(failed("storage probe"));
    enforceRetention(ctx).catch(failed("retention"));
    teamUpkeep(ctx.db).catch(failed("audit log"));
    // PGlite has no autovacuum: the tables that grew are analyzed and vacuumed here
    if (ctx.db.kind === "pglite") embeddedUpkeep(ctx.db).catch(failed("embedded upkeep"));
  }, 60_000);
  sweeps.unref();
  // requests flush the limiter's counts as they come; this carries the last ones of a busy spell
  const sync = setInterval(() => void ctx.limiter.flush(), ctx.config.rateSyncMs);
  sync.unref();
  const stopSender = options.outboxSender === false ? async () => {} : startOutboxSender(ctx);
  const stopWebhooks =
    options.webhookSender === false ? async (_ms?: number) => {} : startWebhookSender(ctx);
  const watchMs =
    options.watchRepository ??
    (ctx.config.embedded && ctx.repo.kind === "git" && !options.skipRepositoryForms ? 1000 : false);
  const watcher = watchMs === false ? null : watchBranchHead(ctx, ctx.config.repoDir, watchMs);
  let closing: Promise<void> | null = null;
  return {
    url,
    ctx,
    firstKey,
    fetch: async (req, env) => fetch(req, env),
    close() {
      closing ??= (async () => {
        clearInterval(sweeps);
        clearInterval(sync);
        const { drainMs } = ctx.config;
        // at once: the listening socket closes; a late request on a kept-alive connection is
        // served with `Connection: close` (http/draining.ts), so those connections end by
        // themselves (node/graceful.ts); the last ones are closed after drainMs
        const connections = closeConnections(drainMs);
        const requests = within(gate.close(), drainMs);
        // the senders finish what they started and write its outcome (the submits in flight
        // write their deliveries due, for any instance to claim)
        await Promise.all([
          requests,
          connections,
          stopSender(),
          stopWebhooks(drainMs),
          watcher?.stop(),
        ]);
        gate.shut();
        await ctx.limiter.flush();
        await ctx.db.close();
      })();
      return closing;
    },
  };
}
