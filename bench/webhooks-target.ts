// A server for bench/webhooks.ts, in its own process: the real service (limiter off, webhook
// sender on) with one form, which has a webhook to the given receiver unless it is "none".
// Usage: node bench/webhooks-target.ts <pglite|postgres> <dataDir> <receiverUrl|none> [dbUrl]
import { type Db, openPostgres, wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { startServer } from "../functions/node/server.ts";
import { accountByHandler, createAccount } from "../functions/services/accounts.ts";
import { createForm } from "../functions/services/forms.ts";
import { createWebhook } from "../functions/webhooks/service.ts";

const [dbKind, dir, receiver, dbUrl] = process.argv.slice(2) as [string, string, string, string?];
const db: Db =
  dbKind === "postgres" ? openPostgres(dbUrl!, 16) : wrapPglite(await openPglite(`${dir}/pgdata`));
await migrate(db);
const s = await startServer({
  env: {
    FORMDOWN_DATA_DIR: dir,
    FORMDOWN_REPO_DIR: dir,
    FORMDOWN_RATE_SUBMIT: "0",
    FORMDOWN_RATE_API: "0",
    FORMDOWN_WEBHOOK_PRIVATE: "1",
  },
  db,
  port: 0,
  host: "127.0.0.1",
  skipRepositoryForms: true,
  outboxSender: false,
  log: { info() {}, error: console.error },
});
if (!(await accountByHandler(s.ctx, "me"))) await createAccount(s.ctx, { handler: "me" });
const me = (await accountByHandler(s.ctx, "me"))!;
const slug = `bench-${Date.now()}`;
await createForm(
  s.ctx,
  me,
  {
    title: "Bench",
    slug,
    humanness: false,
    fields: [
      { id: "name", type: "text" },
      { id: "score", type: "nps" },
      { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
    ],
  },
  { commit: false },
);
if (receiver !== "none")
  await createWebhook(s.ctx, me, slug, { url: receiver, events: ["response.created"] });
console.log(`URL ${s.url}/api/forms/${slug}/submit`);
setInterval(() => {
  const cpu = process.cpuUsage();
  console.log(`RSS ${process.memoryUsage().rss} CPU ${cpu.user + cpu.system}`);
}, 100).unref();
process.on("SIGTERM", () => {
  s.close().finally(() => process.exit(0));
});
