// The small edges of issue 16: a zombie's PGlite lock, malformed escapes in upload URLs, HTTP the
// parser refuses, migrations without nested transactions, and the owner's link-mode URL.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import { lockDataDir, zombie } from "../../functions/db/lock.ts";
import { MIGRATIONS_DIR, migrate } from "../../functions/db/migrate.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the PGlite data-directory lock", () => {
  it("treats a lock held by a zombie (exited, not reaped) as stale, and a live holder as not", async () => {
    // bash starts a short child, then becomes `sleep 10` by exec, which never reaps it
    const parent = spawn("bash", ["-c", "sleep 0.1 & echo $!; exec sleep 10"]);
    try {
      const pid = await new Promise<number>((resolve) =>
        parent.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))),
      );
      for (let i = 0; i < 50 && !zombie(pid); i++) await sleep(50);
      expect((await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]![0]).toBe("Z");
      const dir = await mkdtemp(join(tmpdir(), "formdown-zombie-"));
      try {
        await writeFile(join(dir, "formdown.lock"), String(pid));
        const release = lockDataDir(dir);
        expect(await readFile(join(dir, "formdown.lock"), "utf8")).toBe(String(process.pid));
        release();
        await writeFile(join(dir, "formdown.lock"), String(parent.pid));
        expect(() => lockDataDir(dir)).toThrow(/in use by another Formdown process/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } finally {
      parent.kill();
    }
  });
});

describe("requests the server refuses early", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it("answers a malformed escape in an upload URL with 400 {error, code} (SPEC §19)", async () => {
    for (const path of ["%FF%FE", "a%E0%A4%A", "%"]) {
      const res = await fetch(`${s.url}/api/uploads/${path}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_param", error: expect.any(String) });
    }
  });

  /** Sends raw bytes and reads the answer until the server closes the connection. */
  function raw(request: string): Promise<{ status: number; type: string; body: string }> {
    const { port, hostname } = new URL(s.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let data = "";
      socket.on("data", (d) => {
        data += d.toString();
      });
      socket.on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = data.split("\r\n\r\n");
        resolve({
          status: Number(head.split(" ")[1]),
          type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? "",
          body,
        });
      });
      socket.end(request);
    });
  }

  it("answers what Node's HTTP parser refuses with a JSON {error, code}", async () => {
    const cases: [string, number][] = [
      ["GARBAGE\r\n\r\n", 400],
      [`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40 * 1024)}\r\n\r\n`, 431],
      [
        "POST /api/forms/x/submit HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
      ],
    ];
    for (const [request, status] of cases) {
      const res = await raw(request);
      expect(res.status).toBe(status);
      expect(res.type).toBe("application/json");
      expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), code: "invalid_request" });
    }
    // and the server goes on serving
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });

  it("gives the owner the link-mode URL with its token in the form detail and list", async () => {
    const api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", {
      body: {
        title: "Linked",
        slug: "linked",
        humanness: false,
        fields: [{ id: "a", type: "text" }],
      },
    });
    expect((await api("GET", "/api/forms/linked")).body.public_url).not.toContain("?access=");
    const put = await api("PUT", "/api/forms/linked/access", { body: { mode: "link" } });
    const token = put.body.access_token as string;
    const detail = await api("GET", "/api/forms/linked");
    expect(detail.body.public_url).toBe(put.body.public_url);
    expect(detail.body.public_url).toMatch(new RegExp(`/linked\\?access=${token}$`));
    const list = await api("GET", "/api/forms");
    const item = list.body.find((f: { slug: string }) => f.slug === "linked");
    expect(item.public_url).toBe(put.body.public_url);
    // the URL works for a respondent: its token is the access the submit needs
    const access = new URL(detail.body.public_url).searchParams.get("access");
    const submit = await api("POST", "/api/forms/linked/submit", {
      key: null,
      body: { fields: { a: "x" }, access },
    });
    expect(submit.status).toBe(201);
  });
});

describe.each(DB_KINDS)("migrations (%s)", (kind) => {
  it("apply a failing migration not at all: its transaction rolls back whole", async () => {
    const { db, drop } = await freshDb(kind);
    const dir = await mkdtemp(join(tmpdir(), "formdown-migrations-"));
    try {
      await writeFile(
        join(dir, "99990101000000_half.sql"),
        "create table half_done (id int);\nselect 1 / 0;\n",
      );
      await expect(migrate(db, dir)).rejects.toThrow(/division by zero/);
      const [t] = await db.query<{ t: string | null }>(
        "select to_regclass('half_done')::text as t",
      );
      expect(t!.t).toBeNull();
      const rows = await db.query("select name from formdown_migrations where name like '9999%'");
      expect(rows).toEqual([]);
      // the database is usable afterwards (no transaction left open)
      expect(await db.query<{ n: number }>("select 1 as n")).toEqual([{ n: 1 }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await drop();
    }
  });
});

describe.each(process.env.TEST_DATABASE_URL ? ["postgres"] : [])("migrations on %s", () => {
  it("run without a warning (no BEGIN nested in the transaction)", async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `formdown_notice_${Date.now()}`;
    const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    url.pathname = `/${name}`;
    const notices: string[] = [];
    const sql = postgres(url.toString(), {
      max: 1,
      onnotice: (n) => notices.push(String(n.message)),
    });
    // the same calls openPostgres makes, with the notices kept
    const db: Db = {
      kind: "postgres",
      query: async (text, params) =>
        (await sql.unsafe(text, params as never[])) as unknown as never[],
      exec: async (script) => {
        await sql.begin(async (tx) => {
          await tx.unsafe(script).simple();
        });
      },
      close: () => sql.end(),
    };
    try {
      const applied = await migrate(db);
      expect(applied.length).toBeGreaterThanOrEqual(5);
      expect(applied.length).toBe(
        (await import("node:fs")).readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql"))
          .length,
      );
      expect(notices.filter((m) => /transaction/.test(m))).toEqual([]);
    } finally {
      await db.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
