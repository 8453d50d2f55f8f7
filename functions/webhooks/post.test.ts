import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "./post.ts";

let server: Server;
let port: number;
const hits: string[] = [];
let sentBytes = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    req.resume();
    if (req.url === "/redirect") return res.writeHead(302, { location: "/target" }).end();
    if (req.url === "/hang") return;
    if (req.url === "/huge") {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (sentBytes < 50 * 1024 * 1024 && res.write(chunk)) sentBytes += chunk.length;
        if (sentBytes < 50 * 1024 * 1024) res.once("drain", pump);
        else res.end();
      };
      res.on("close", () => res.removeAllListeners("drain"));
      return pump();
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const post = (path: string, allowPrivate = true, timeoutMs = 2000, host = "127.0.0.1") =>
  postWebhook(`http://${host}:${port}${path}`, { "content-type": "application/json" }, "{}", {
    timeoutMs,
    allowPrivate,
  });

describe("one webhook POST", () => {
  it("counts a 2xx as delivered", async () => {
    expect(await post("/ok")).toEqual({ status: 204, error: null });
  });

  it("does not follow redirects", async () => {
    hits.length = 0;
    expect(await post("/redirect")).toMatchObject({
      status: 302,
      error: expect.stringContaining("302"),
    });
    expect(hits).toEqual(["/redirect"]);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    // the receiver never answers: only the 300 ms timeout ends the attempt
    expect(await post("/hang", true, 300)).toMatchObject({
      status: null,
      error: expect.stringContaining("300 ms"),
    });
  });

  it("reads at most 64 KB of an answer", async () => {
    expect(await post("/huge")).toEqual({ status: 200, error: null });
    expect(sentBytes).toBeLessThan(50 * 1024 * 1024);
  });

  it("refuses a private address when private ones are not allowed, by IP and after resolving a name", async () => {
    hits.length = 0;
    expect(await post("/ok", false)).toMatchObject({
      status: null,
      error: expect.stringContaining("private"),
    });
    expect(await post("/ok", false, 2000, "localhost")).toMatchObject({
      status: null,
      error: expect.stringContaining("private"),
    });
    expect(hits).toEqual([]);
  });
});
