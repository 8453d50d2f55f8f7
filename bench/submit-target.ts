// A server for bench/submit.ts, in its own process: `formdown` (the real service, limiter off)
// or a bare node:http server that parses the same body and does one INSERT with the same driver:
// `baseline` into a table with only a primary key, `baseline-responses` into the service's own
// responses table (with the indexes its reads need). Both prepare their INSERT, as a tagged
// postgres.js query would.

import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openPostgres, wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { startServer } from "../functions/node/server.ts";
import { accountByHandler, createAccount } from "../functions/services/accounts.ts";
import { createForm } from "../functions/services/forms.ts";

const [kind, dbKind, dbUrl] = process.argv.slice(2) as [
  "formdown" | "baseline" | "baseline-responses",
  "pglite" | "postgres",
  string | undefined,
];
const open = async (): Promise<Db> => {
  const db =
    dbKind === "postgres"
      ? openPostgres(dbUrl!, 16)
      : wrapPglite(await openPglite(mkdtempSync(join(tmpdir(), "bench-pg-"))));
  await migrate(db);
  return db;
};

if (kind !== "formdown") {
  const db = await open();
  await db.query(
    "create table if not exists bench_rows (id uuid primary key default gen_random_uuid(), form_id uuid, payload jsonb, submitted_at timestamptz default now())",
  );
  let form: string = crypto.randomUUID();
  let insert = "insert into bench_rows (form_id, payload) values ($1, $2::jsonb) returning id";
  if (kind === "baseline-responses") {
    const [account] = await db.query<{ id: string }>(
      "insert into accounts (handler) values ($1) returning id",
      [`bench-${Date.now()}`],
    );
    const [row] = await db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, $2, $3, 'Bench', 'form', '{}'::jsonb) returning id`,
      [account!.id, `bench-${Date.now()}`, `B${Date.now()}`],
    );
    form = row!.id;
    insert = "insert into responses (form_id, seq, payload) values ($1, 0, $2::jsonb) returning id";
  }
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      const parsed = JSON.parse(body) as { fields: object };
      // prepared, as a tagged postgres.js query would be
      const [row] = await db.query<{ id: string }>(insert, [form, JSON.stringify(parsed.fields)], {
        prepare: true,
      });
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ response_id: row!.id, status: "received" }));
    });
  });
  server.listen(0, "127.0.0.1", () =>
    console.log(`URL http://127.0.0.1:${(server.address() as AddressInfo).port}/submit`),
  );
} else {
  const db = await open();
  const dir = mkdtempSync(join(tmpdir(), "bench-fd-"));
  const s = await startServer({
    env: {
      FORMDOWN_DATA_DIR: dir,
      FORMDOWN_REPO_DIR: dir,
      // bench/limiter.ts sets the limits; bench/submit.ts measures with the limiter off
      FORMDOWN_RATE_SUBMIT: process.env.FORMDOWN_RATE_SUBMIT ?? "0",
      FORMDOWN_RATE_API: process.env.FORMDOWN_RATE_API ?? "0",
      // FORMDOWN_SUBMIT_BATCH=1 measures the service with every submit its own INSERT
      FORMDOWN_SUBMIT_BATCH: process.env.FORMDOWN_SUBMIT_BATCH,
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
  await createForm(
    s.ctx,
    me,
    {
      title: "Bench",
      slug: `bench-${Date.now()}`,
      humanness: false,
      notifications: {
        email: ["a@example.com"],
        strategy: { immediate_count: 0, milestones: { absolute: [1000] } },
      },
      fields: [
        { id: "name", type: "text" },
        { id: "score", type: "nps" },
        { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
      ],
    },
    { commit: false },
  );
  const [row] = await s.ctx.db.query<{ slug: string }>(
    "select slug from forms order by created_at desc limit 1",
  );
  console.log(`URL ${s.url}/api/forms/${row!.slug}/submit`);
}
