// SPEC §22 "Operator hygiene": several instances on one Postgres need one upload storage. Three
// servers on one database: two keep uploads in the same folder (one disk, or one mounted by
// both), the third on a disk of its own. The third says so in its log at start, `formdown
// doctor` fails on it through any of them, and an upload it took is indeed 404 on the first.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Log } from "../../functions/context.ts";
import { type RunningServer, startServer } from "../../functions/node/server.ts";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer } from "../helpers/server.ts";

const pg = process.env.TEST_DATABASE_URL;
const ADMIN = "shared-storage-admin";

/** A log that keeps the JSON lines a server would print. */
function keptLog() {
  const lines: { level: string; msg: string }[] = [];
  const log: Log = {
    info: (msg) => lines.push({ level: "info", msg }),
    error: (msg) => lines.push({ level: "error", msg }),
  };
  return { log, lines };
}

describe.each(pg ? ["postgres"] : [])("upload storage shared by the instances, on %s", () => {
  const name = `formdown_shared_storage_${process.pid}_${Date.now()}`;
  const admin = postgres(pg ?? "", { max: 1, onnotice: () => {} });
  let root = "";
  let dbUrl = "";
  const servers: RunningServer[] = [];
  const logs: ReturnType<typeof keptLog>[] = [];
  let key = "";

  const start = async (uploads: string) => {
    const kept = keptLog();
    const repo = join(root, `repo-${servers.length}`);
    await mkdir(repo);
    const server = await startServer({
      env: {
        DATABASE_URL: dbUrl,
        FORMDOWN_ADMIN_TOKEN: ADMIN,
        FORMDOWN_DATA_DIR: join(root, uploads),
        FORMDOWN_REPO_DIR: repo,
        FORMDOWN_DRAIN_MS: "0",
      },
      port: 0,
      host: "127.0.0.1",
      log: kept.log,
      skipRepositoryForms: true,
      outboxSender: false,
      webhookSender: false,
    });
    servers.push(server);
    logs.push(kept);
    return server;
  };
  const errors = (server: RunningServer) =>
    fetch(`${server.url}/api/health?detail=1`, { headers: { authorization: `Bearer ${key}` } })
      .then((r) => r.json())
      .then((b: { errors: string[] }) => b.errors);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "formdown-shared-storage-"));
    await admin.unsafe(`create database ${name}`);
    const u = new URL(pg!);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    const first = await start("shared");
    const res = await fetch(`${first.url}/api/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ handler: "acme", email: "acme@example.com" }),
    });
    key = ((await res.json()) as { api_key: string }).api_key;
  });

  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => {});
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("says nothing while every instance reads the others' storage", async () => {
    const second = await start("shared");
    expect(logs[1]!.lines.filter((l) => l.level === "error")).toEqual([]);
    expect(await errors(servers[0]!)).toEqual([]);
    expect(await errors(second)).toEqual([]);
  });

  it("names an instance on a disk of its own at its start, and doctor fails on it through any instance", async () => {
    const apart = await start("apart");
    const said = logs[2]!.lines.filter((l) => l.level === "error").map((l) => l.msg);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^Uploads are not shared: instance \S+ keeps them in the folder .*\/shared\/uploads on this instance's disk, and a file it wrote there cannot be read by this instance .* which keeps them in the folder .*\/apart\/uploads/,
    );
    expect(said[0]).toContain("SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY");
    for (const server of [servers[0]!, apart]) {
      const found = await errors(server);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^Uploads are not shared/);
    }
    const doctor = await runFormdown(["doctor"], {
      env: { FORMDOWN_URL: servers[0]!.url, FORMDOWN_API_KEY: key },
    });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✗ upload storage: Uploads are not shared/);
  });

  it("is right: an upload the instance apart took is 404 on the first", async () => {
    const stored = "forms/x/proof.txt";
    await servers[2]!.ctx.storage.put(stored, new TextEncoder().encode("proof"), "text/plain");
    expect((await fetch(`${servers[2]!.url}/api/uploads/${stored}`)).status).toBe(200);
    expect((await fetch(`${servers[0]!.url}/api/uploads/${stored}`)).status).toBe(404);
  });
});

describe("upload storage on PGlite", () => {
  it("compares nothing: one process holds the database", async () => {
    const s = await startTestServer();
    try {
      const detail = await fetch(`${s.url}/api/health?detail=1`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      }).then((r) => r.json());
      expect(detail.errors).toEqual([]);
      const [row] = await s.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from storage_probes",
      );
      expect(row!.n).toBe(0);
    } finally {
      await s.close();
    }
  });
});
