// `formdown dev`: the working tree's form files on a local port, rendered by the real page
// components and answered by the embedded backend on a throwaway PGlite database. A small proxy in
// front adds the reload script to form pages, shows a broken file's errors at its URL, and tells
// open pages to reload (server-sent events) as soon as a saved file is deployed.
import { type FSWatcher, watch } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isTranslationFile } from "../../../src/core/translation-file.ts";
import type { Log } from "../../context.ts";
import { buildPages, ensurePagesBuilt } from "../build-pages.ts";
import { startServer } from "../server.ts";
import { type DevFile, loadDevForms } from "./dev-forms.ts";
import {
  DEV_SCRIPT,
  devHeaders,
  errorPage,
  indexPage,
  RELOAD_PATH,
  SCRIPT_PATH,
} from "./dev-pages.ts";
import { forward } from "./dev-proxy.ts";

export interface DevOptions {
  /** Form files; none: every forms/@<handler>/*.md under `cwd`, found again on each change. */
  files: string[];
  cwd: string;
  port: number;
  host?: string;
  log: Log;
}

async function discover(cwd: string): Promise<string[]> {
  const dir = join(cwd, "forms");
  const out: string[] = [];
  for (const h of await readdir(dir, { withFileTypes: true }).catch(() => []))
    if (h.isDirectory() && h.name.startsWith("@"))
      for (const f of await readdir(join(dir, h.name)))
        if (f.endsWith(".md") && !isTranslationFile(f)) out.push(join(dir, h.name, f));
  return out.sort();
}

/** Pages need the Astro build; a broken form in the checkout's own forms/ must not stop it. */
async function pagesBuilt(log: Log, scratch: string): Promise<void> {
  try {
    await ensurePagesBuilt();
  } catch {
    log.info("The checkout's own forms/ does not build; building the pages without it.");
    await buildPages({ env: { FORMDOWN_FORMS_DIR: scratch }, quiet: true });
  }
}

export async function startDevServer(options: DevOptions) {
  const { log, cwd } = options;
  const scratch = await mkdtemp(join(tmpdir(), "formdown-dev-"));
  await pagesBuilt(log, join(scratch, "no-forms"));
  let files: DevFile[] = [];
  const clients = new Set<ServerResponse>();
  let inner = "";
  // requests that arrive while the database starts wait for the first load of the files
  let ready!: () => void;
  const started = new Promise<void>((done) => {
    ready = done;
  });
  const proxy = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.error("formdown dev: request failed", error);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("formdown dev: the embedded server did not answer");
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === SCRIPT_PATH) {
      res.writeHead(200, {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "no-store",
      });
      return void res.end(DEV_SCRIPT);
    }
    if (path === RELOAD_PATH) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      res.write(": formdown dev\n\n");
      clients.add(res);
      req.on("close", () => clients.delete(res));
      return;
    }
    await started;
    if (path === "/" && req.method === "GET") {
      res.writeHead(200, devHeaders);
      return void res.end(indexPage(files));
    }
    const page = /^\/@([a-z0-9-]+)\/([a-z0-9-]+)\/?$/.exec(path);
    const broken =
      page && files.find((f) => f.handler === page[1] && f.slug === page[2] && f.errors.length > 0);
    if (broken && req.method === "GET") {
      res.writeHead(200, devHeaders);
      return void res.end(errorPage(broken));
    }
    await forward(req, res, inner, Boolean(page));
  };
  await new Promise<void>((done) => proxy.listen(options.port, options.host ?? "127.0.0.1", done));
  const address = proxy.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  const server = await startServer({
    env: {
      FORMDOWN_DATA_DIR: join(scratch, "data"),
      FORMDOWN_REPO_DIR: join(scratch, "repo"),
      FORMDOWN_BASE_URL: url,
      FORMDOWN_PUBLIC_BASE_URL: url,
      FORMDOWN_RATE_SUBMIT: "0",
      FORMDOWN_RATE_API: "0",
    },
    port: 0,
    host: "127.0.0.1",
    log: { info: () => {}, error: log.error },
    skipRepositoryForms: true,
    outboxSender: false,
  });
  inner = server.url;
  const paths = async () =>
    options.files.length > 0
      ? options.files.filter((f) => !isTranslationFile(f)).map((f) => resolve(cwd, f))
      : discover(cwd);
  const reload = async () => {
    files = await loadDevForms(server.ctx, await paths(), cwd);
    for (const c of clients) c.write("event: reload\ndata: 1\n\n");
    return files;
  };
  await reload();
  ready();
  // watch the folders (editors often save by replacing the file, which a file watch would lose)
  const dirs =
    options.files.length > 0
      ? [...new Set((await paths()).map((p) => dirname(p)))]
      : [join(cwd, "forms")];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const changed = (onChange?: (f: DevFile[]) => void) => () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running
        .then(reload)
        .then(onChange, (e) => log.error("formdown dev: reload failed", e));
    }, 25);
  };
  const watchers: FSWatcher[] = [];
  return {
    url,
    files: () => files,
    /** Starts watching; `onChange` hears each reload (the CLI prints the errors). */
    watch(onChange?: (f: DevFile[]) => void) {
      for (const d of dirs)
        watchers.push(watch(d, { recursive: options.files.length === 0 }, changed(onChange)));
    },
    async close() {
      for (const w of watchers) w.close();
      if (timer) clearTimeout(timer);
      for (const c of clients) c.end();
      proxy.closeAllConnections();
      await new Promise<void>((done) => proxy.close(() => done()));
      await running;
      await server.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
