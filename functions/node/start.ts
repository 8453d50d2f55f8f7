// `npm start`: the whole service on the embedded defaults (or what the environment configures).

import { flushCompileCache } from "node:module";
import { relaunch } from "./low-memory.ts";

// before anything else is loaded: this may replace the process with itself under other settings
relaunch();

const { ensurePagesBuilt } = await import("./build-pages.ts");

process.env.ASTRO_TELEMETRY_DISABLED ??= "1";
try {
  await ensurePagesBuilt();
  // loaded after the build: while a first start builds the pages (the build alone takes about
  // 500 MB), this process stays at a bare Node's size instead of carrying the whole server
  const { startServer } = await import("./server.ts");
  const server = await startServer({ env: process.env });
  const { config } = server.ctx;
  const { configWarnings } = await import("../http/operations.ts");
  for (const w of configWarnings(config)) console.error(`Warning: ${w}`);
  if (server.firstKey) {
    console.log(
      `\nCreated the account @${server.firstKey.handler}. Its API key (shown once, also in ${config.dataDir}/api-key):\n\n  ${server.firstKey.key}\n`,
    );
  }
  // beside the key: the CLI in this checkout finds the server on whatever PORT it was given
  const { removeUrlFile, writeUrlFile } = await import("./url-file.ts");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(config.dataDir, { recursive: true });
  const reachable = await writeUrlFile(config.dataDir, server.url);
  // what this start compiled is kept now, not at exit: a process that is killed keeps it too
  flushCompileCache();
  console.log(`Formdown is running at ${config.baseUrl} (listening on ${server.url})`);
  console.log(
    `  database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`} · anti-bot: ${server.ctx.antibot.kind} · mail: ${server.ctx.mailer ? (server.ctx.mailer.kind === "smtp" ? "SMTP" : "Postmark") : "outbox"} · forms: ${server.ctx.repo.kind} repository`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: finishing requests and closing the database…`);
    // the process ends whatever the stop meets (a database gone away rejects its close): the
    // process guard keeps a serving process alive through a stray error, never a stopping one
    try {
      await server.close();
      await removeUrlFile(config.dataDir, reachable).catch(() => {});
      process.exit(0);
    } catch (error) {
      console.error(`${signal}: the stop did not finish cleanly: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  console.error(`Formdown could not start: ${(error as Error).message}`);
  process.exit(1);
}
