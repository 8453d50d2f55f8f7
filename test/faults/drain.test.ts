// The operator's host tools as real processes on Postgres (SPEC §17): `formdown migrate` on a
// fresh database, responses written by the Deno entry (which sends nothing itself), `formdown
// doctor` warning about what has been due for over 5 minutes and about localhost links, then one
// `formdown drain` run delivering every email and webhook (more than one batch's worth).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { ROOT } from "./common.ts";
import { freePort } from "./pg-cluster.ts";
import { startSlowReceiver } from "./slow-receiver.ts";

const pg = process.env.TEST_DATABASE_URL;
const ADMIN = "drain-admin";
const RESPONSES = 220;

function cli(args: string[], env: Record<string, string>, cwd = tmpdir()) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [join(ROOT, "cli/formdown.mjs"), ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.once("close", (code) => done({ code, stdout, stderr }));
  });
}

describe.each(pg ? ["postgres"] : [])("migrate, doctor and drain on %s", () => {
  const name = `formdown_drain_${process.pid}_${Date.now()}`;
  const admin = postgres(pg ?? "", { max: 1, onnotice: () => {} });
  let dbUrl = "";
  let deno: ChildProcess;
  let url = "";
  let key = "";
  let postmark: Awaited<ReturnType<typeof startPostmarkFake>>;
  let receiver: Awaited<ReturnType<typeof startSlowReceiver>>;
  let migrated: { code: number | null; stderr: string };
  // never the checkout: a form created here would be committed into it
  const dir = mkdtempSync(join(tmpdir(), "formdown-drain-"));

  beforeAll(async () => {
    await admin.unsafe(`create database ${name}`);
    const u = new URL(pg!);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    postmark = await startPostmarkFake();
    receiver = await startSlowReceiver();
    receiver.release();
    migrated = await cli(["migrate"], { DATABASE_URL: dbUrl }, dir);
    const port = await freePort();
    deno = spawn(join(ROOT, "node_modules/.bin/deno"), ["run", "-A", "functions/deno/main.ts"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        DATABASE_URL: dbUrl,
        FORMDOWN_ADMIN_TOKEN: ADMIN,
        FORMDOWN_RATE_SUBMIT: "0",
        FORMDOWN_WEBHOOK_PRIVATE: "1",
        FORMDOWN_REPO_DIR: dir,
        FORMDOWN_DATA_DIR: join(dir, "data"),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      deno.stdout!.on("data", (d: Buffer) => /URL /.test(d.toString()) && resolve());
      deno.once("exit", (code) => reject(new Error(`deno exited ${code}`)));
    });
    url = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, body: unknown, bearer = key) => {
      const res = await fetch(`${url}${path}`, {
        method,
        // a submit with the owner's key is a test answer (SPEC §16): respondents send none
        headers: {
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    key = (await call("POST", "/api/accounts", { handler: "ops", email: "o@example.com" }, ADMIN))
      .api_key as string;
    await call("POST", "/api/forms", {
      title: "Ops",
      slug: "ops",
      humanness: false,
      notifications: { email: ["o@example.com"], strategy: { immediate_count: 1000 } },
      fields: [{ id: "q", type: "text" }],
    });
    await call("POST", "/api/forms/ops/webhooks", { url: receiver.url });
    for (let i = 0; i < RESPONSES; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          call("POST", "/api/forms/ops/submit", { fields: { q: `r${i + j}` } }, ""),
        ),
      );
    // as if no drain had run for ten minutes
    const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
    await db`update outbox set next_attempt_at = now() - interval '10 minutes'`;
    await db`update webhook_deliveries set next_attempt_at = now() - interval '10 minutes'`;
    await db.end();
  }, 240_000);

  afterAll(async () => {
    if (deno?.exitCode === null) deno.kill("SIGKILL");
    await postmark?.close();
    await receiver?.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it("migrates a fresh database with `formdown migrate`", () => {
    expect(migrated.code).toBe(0);
    expect(migrated.stderr).toMatch(/^Applied \d+_init\.sql/);
  });

  it("doctor warns about overdue emails and deliveries and about localhost links", {
    timeout: 120_000,
  }, async () => {
    const r = await cli(["doctor", "--url", url, "--key", key], {});
    expect(r.stdout).toContain(
      `⚠ ${RESPONSES} email(s) and ${RESPONSES} webhook deliveries have been due for over 5 minutes`,
    );
    expect(r.stdout).toMatch(/⚠ FORMDOWN_BASE_URL is http:\/\/localhost/);
  });

  it("one drain run sends every due email and delivery, past one batch", async () => {
    const r = await cli(["drain"], {
      DATABASE_URL: dbUrl,
      POSTMARK_SERVER_TOKEN: "t",
      POSTMARK_API_URL: postmark.url,
      FORMDOWN_WEBHOOK_PRIVATE: "1",
      FORMDOWN_BASE_URL: "forms.example.com/",
      FORMDOWN_REPO_DIR: dir,
      FORMDOWN_DATA_DIR: join(dir, "cli"),
    });
    expect(r.code).toBe(0);
    const counts = JSON.parse(r.stdout) as { sent: number; webhooks: { delivered: number } };
    expect(counts.sent).toBe(RESPONSES);
    expect(counts.webhooks.delivered).toBe(RESPONSES);
    expect(postmark.sent).toHaveLength(RESPONSES);
    expect(postmark.sent[0]!.TextBody).toContain("https://forms.example.com/view/");
    expect(receiver.byId.size).toBe(RESPONSES);
    const doctor = await cli(["doctor", "--url", url, "--key", key], {});
    expect(doctor.stdout).not.toContain("have been due for over 5 minutes");
  }, 300_000);
});
