// The Deno entry's start (functions/deno/serve.ts): it listens at once, and a request that comes
// before the database has answered waits for it and is served; a start that cannot reach the
// database exits 1 with the reason and answers nothing. The database is reached through a
// loopback proxy that holds each connection back until the test lets it through.
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep, spawnDenoEntry } from "./common.ts";
import { freePort } from "./pg-cluster.ts";

const pg = process.env.TEST_DATABASE_URL;

/** A TCP proxy to Postgres that connects nothing until `open()`; it counts what it let through. */
function heldProxy(target: URL) {
  const opened = Promise.withResolvers<void>();
  const sockets = new Set<Socket>();
  let through = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    // a client gone while held (the entry killed) is let go, not left to throw
    client.on("error", () => client.destroy());
    client.pause();
    void opened.promise.then(() => {
      through++;
      const upstream = connect(Number(target.port || 5432), target.hostname);
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      client.resume();
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
    });
  });
  return {
    listen: (port: number) => new Promise<void>((r) => server.listen(port, "127.0.0.1", r)),
    open: () => opened.resolve(),
    through: () => through,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

function startDeno(databaseUrl: string, port: number, repoDir: string) {
  const child = spawnDenoEntry(port, { DATABASE_URL: databaseUrl, FORMDOWN_REPO_DIR: repoDir });
  let output = "";
  child.stdout!.on("data", (d) => {
    output += d;
  });
  child.stderr!.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, exited, output: () => output };
}

describe.each(pg ? ["postgres"] : [])("the Deno entry's start on %s", () => {
  const name = `formdown_deno_start_${process.pid}_${Date.now()}`;
  const admin = postgres(pg ?? "", { max: 1, onnotice: () => {} });
  const repoDir = mkdtempSync(join(tmpdir(), "formdown-deno-start-"));
  let target: URL;

  beforeAll(async () => {
    await admin.unsafe(`create database ${name}`);
    target = new URL(pg!);
    target.pathname = `/${name}`;
  });
  afterAll(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(repoDir, { recursive: true, force: true });
  });

  it("listens before the database answers, and serves the request that waited for it", async () => {
    const proxy = heldProxy(target);
    const proxyPort = await freePort();
    await proxy.listen(proxyPort);
    const through = new URL(target);
    through.hostname = "127.0.0.1";
    through.port = String(proxyPort);
    const port = await freePort();
    const deno = startDeno(through.toString(), port, repoDir);
    try {
      // the port opens while every connection to the database is still held back
      while (!/URL /.test(deno.output())) {
        if (deno.child.exitCode !== null) throw new Error(deno.output());
        await sleep(20);
      }
      let settled = false;
      const answer = fetch(`http://127.0.0.1:${port}/formdown/api/health`).finally(() => {
        settled = true;
      });
      await sleep(500);
      expect(proxy.through()).toBe(0);
      expect(settled).toBe(false);
      // the request waits: it is answered once the database is reached (and migrated)
      proxy.open();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, database: "up" });
      expect(proxy.through()).toBeGreaterThan(0);
    } finally {
      deno.child.kill("SIGKILL");
      await deno.exited;
      await proxy.close();
    }
  }, 60_000);

  it("exits 1 with the reason when the database cannot be reached", async () => {
    const closed = new URL(target);
    closed.port = String(await freePort());
    const deno = startDeno(closed.toString(), await freePort(), repoDir);
    expect(await deno.exited).toBe(1);
    expect(deno.output()).toMatch(/Formdown could not start: /);
  }, 60_000);
});
