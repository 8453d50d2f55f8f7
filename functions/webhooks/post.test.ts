import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "./post.ts";

let server: Server;
let port: number;
let connections = 0;
const hits: string[] = [];
const heads: Record<string, string | undefined>[] = [];
let sentBytes = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    heads.push({ ua: req.headers["user-agent"], type: req.headers["content-type"] });
    req.resume();
    if (req.url === "/redirect") return res.writeHead(302, { location: "/target" }).end();
    if (req.url === "/hang") return;
    if (req.url === "/drop") return req.socket.destroy();
    if (req.url === "/oops") {
      res.writeHead(500); // chunked: no length given
      res.write("Wiki");
      return setTimeout(() => res.end("pedia"), 20);
    }
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
  server.on("connection", () => connections++);
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
  it("counts a 2xx as delivered, with our user agent and the given headers", async () => {
    heads.length = 0;
    expect(await post("/ok")).toEqual({ status: 204, error: null });
    expect(heads).toEqual([{ ua: "Formdown-Webhooks/1", type: "application/json" }]);
  });

  it("reuses kept-alive connections for the next POSTs", async () => {
    // undici may open a second connection while the first one's answer is being wound up
    for (let i = 0; i < 3; i++) await post("/ok");
    const before = connections;
    for (let i = 0; i < 5; i++) expect((await post("/ok")).status).toBe(204);
    expect(connections).toBe(before);
  });

  it("does not follow redirects", async () => {
    hits.length = 0;
    expect(await post("/redirect")).toMatchObject({
      status: 302,
      error: expect.stringContaining("302"),
    });
    expect(hits).toEqual(["/redirect"]);
  });

  it("tells a failure's status and the start of its (chunked) answer", async () => {
    expect(await post("/oops")).toEqual({ status: 500, error: "HTTP 500: Wikipedia" });
  });

  it("gives up on a receiver that does not answer in time, or drops the connection", async () => {
    // the receiver never answers: only the 300 ms timeout ends the attempt
    expect(await post("/hang", true, 300)).toMatchObject({
      status: null,
      error: expect.stringContaining("300 ms"),
    });
    expect(await post("/drop")).toMatchObject({ status: null, error: expect.any(String) });
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

  it("refuses a URL that is not http(s)", async () => {
    expect(
      await postWebhook("ftp://example.com/", {}, "{}", { timeoutMs: 100, allowPrivate: true }),
    ).toEqual({ status: null, error: "the URL is not valid" });
  });

  it("speaks TLS and refuses a self-signed certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formdown-tls-"));
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost"].concat([
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
      ]),
      { stdio: "ignore" },
    );
    let reached = false;
    const secure = createHttpsServer(
      { key: readFileSync(key), cert: readFileSync(cert) },
      (_q, s) => {
        reached = true;
        s.end();
      },
    );
    secure.on("tlsClientError", () => {});
    await new Promise<void>((r) => secure.listen(0, "127.0.0.1", () => r()));
    const { port: tlsPort } = secure.address() as AddressInfo;
    const result = await postWebhook(`https://localhost:${tlsPort}/`, {}, "{}", {
      timeoutMs: 2000,
      allowPrivate: true,
    });
    secure.close();
    expect(result).toMatchObject({ status: null, error: expect.stringMatching(/self[- ]signed/) });
    expect(reached).toBe(false);
  });
});
