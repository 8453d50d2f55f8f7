// The pieces of bench/split-deploy.ts: a plain static server, a loopback webhook receiver, the
// two API entries as real processes (the Node server; the Deno entry through the Supabase
// function layout) and the scheduled drain, each stoppable with SIGTERM and restartable.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";

export const ROOT = resolve(new URL("../", import.meta.url).pathname);
export const DENO = join(ROOT, "node_modules/.bin/deno");

const listen = async (server: Server, port = 0) => {
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A static host that knows files only (test/helpers/static-host.ts). */
export { startStatic } from "../test/helpers/static-host.ts";

/** Records every delivery by webhook-id and response id; answers 204 after a short wait. */
export async function startReceiver() {
  const byWebhookId = new Map<string, number>();
  const byResponse = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      // 20-120 ms: attempts are under way whenever an instance is stopped
      setTimeout(
        () => {
          byWebhookId.set(id, (byWebhookId.get(id) ?? 0) + 1);
          try {
            const event = JSON.parse(body) as { data?: { response?: { id?: string } } };
            const rid = event.data?.response?.id;
            if (rid) byResponse.set(rid, (byResponse.get(rid) ?? 0) + 1);
          } catch {}
          res.writeHead(204).end();
        },
        20 + Math.random() * 100,
      );
    });
  });
  const url = await listen(server);
  return {
    url,
    byWebhookId,
    byResponse,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface Instance {
  name: string;
  /** Where the application answers (the Supabase layout: with `/formdown` in front). */
  base: string;
  up: boolean;
  start(): Promise<void>;
  /** SIGTERM; resolves with the exit code and the time it took. */
  stop(): Promise<{ code: number | null; ms: number }>;
  kill(): void;
  output(): string;
}

/** A process started again and again with the same command; ready when `ready` is printed. */
export function instance(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  base: string,
): Instance {
  let child: ChildProcess | null = null;
  let out = "";
  let exited: Promise<number | null> = Promise.resolve(null);
  const self: Instance = {
    name,
    base,
    up: false,
    async start() {
      child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      const c = child;
      exited = new Promise((r) => c.once("exit", (code) => r(code)));
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`${name} did not start:\n${out}`)), 180_000);
        const look = (d: Buffer) => {
          out += d;
          if (ready.test(out.slice(-2000))) {
            clearTimeout(timer);
            ok();
          }
        };
        c.stdout!.on("data", look);
        c.stderr!.on("data", (d) => {
          out += d;
        });
        c.once("exit", (code) => {
          clearTimeout(timer);
          fail(new Error(`${name} exited (${code}):\n${out}`));
        });
      });
      self.up = true;
    },
    async stop() {
      const t = performance.now();
      child?.kill("SIGTERM");
      const code = await exited;
      self.up = false;
      child = null;
      return { code, ms: Math.round(performance.now() - t) };
    },
    kill() {
      if (child?.exitCode === null) child.kill("SIGKILL");
    },
    output: () => out,
  };
  return self;
}
