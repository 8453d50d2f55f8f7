// The webhook client against receivers that answer in every framing HTTP/1.1 allows, written
// byte for byte on raw sockets: what node:http's client read for us before (issue 28).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecureContext, createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, target } from "./http1.ts";

/** What the receiver writes for each request, by path; it counts connections and requests. */
const answers: Record<string, (socket: Socket) => void> = {
  "/length": (s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"),
  "/empty": (s) => s.write("HTTP/1.1 204 No Content\r\n\r\n"),
  "/chunked": (s) => {
    s.write("HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n");
    setTimeout(() => s.write("6\r\npedia \r\n0\r\nX-Trailer: 1\r\n\r\n"), 20);
  },
  "/continue": (s) =>
    s.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n"),
  "/close": (s) => {
    s.write("HTTP/1.0 404 Not Found\r\n\r\nnot ");
    setTimeout(() => s.end("here"), 20);
  },
  "/huge": (s) => {
    s.write("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n");
    const chunk = Buffer.alloc(16 * 1024, "x");
    const pump = () => {
      while (!s.destroyed && s.write(chunk));
      if (!s.destroyed) s.once("drain", pump);
    };
    s.on("error", () => {});
    pump();
  },
  "/hang": () => {},
  "/garbage": (s) => s.write("SMTP ready\r\n\r\n"),
  "/drop": (s) => s.destroy(),
};

let server: Server;
let port = 0;
let connections = 0;
const requests: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buf = "";
    socket.on("data", (d) => {
      buf += d.toString("latin1");
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const head = buf.slice(0, end);
        buf = buf.slice(end + 4 + length);
        requests.push(head);
        const path = head.split(" ")[1]!.split("?")[0]!;
        answers[path]!(socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  server.close();
});

const to = (path: string) => target(new URL(`http://127.0.0.1:${port}${path}`));
const send = (path: string, deadlineMs = 2000) =>
  post(to(path), "content-type: application/json\r\n", '{"a":1}', {
    deadlineMs,
    limit: 64 * 1024,
  });

describe("the webhook HTTP/1.1 client", () => {
  it("writes one request with its host, length and headers, and reads a length-framed answer", async () => {
    requests.length = 0;
    const a = await send("/length?x=1");
    expect([a.status, a.head.toString()]).toEqual([200, "hello"]);
    expect(requests[0]).toBe(
      `POST /length?x=1 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 7\r\ncontent-type: application/json`,
    );
  });

  it("reuses a kept-alive connection for the next POST", async () => {
    await send("/empty");
    const before = connections;
    for (let i = 0; i < 5; i++) expect((await send("/empty")).status).toBe(204);
    expect(connections).toBe(before);
  });

  it("reads a chunked answer, extensions and trailers included, and keeps the connection", async () => {
    const a = await send("/chunked");
    expect([a.status, a.head.toString()]).toEqual([500, "Wikipedia "]);
    const before = connections;
    await send("/empty");
    expect(connections).toBe(before);
  });

  it("skips an informational answer for the final one", async () => {
    expect((await send("/continue")).status).toBe(202);
  });

  it("reads an answer that ends with the connection, and does not reuse that one", async () => {
    const a = await send("/close");
    expect([a.status, a.head.toString()]).toEqual([404, "not here"]);
  });

  it("stops after the limit of a huge answer", async () => {
    const a = await send("/huge");
    expect(a.status).toBe(200);
    expect(a.head.length).toBe(256);
  });

  it("gives up at the deadline, and rejects what is not HTTP", async () => {
    await expect(send("/hang", 200)).rejects.toThrow("no answer within 200 ms");
    await expect(send("/garbage")).rejects.toThrow("not HTTP/1.x");
    await expect(send("/drop")).rejects.toThrow(/closed before the answer|ECONNRESET/);
  });

  it("sends again on a new connection when the receiver closed the kept-alive one", async () => {
    await send("/empty");
    // the receiver drops every connection it holds, as a keep-alive timeout would
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 20));
    requests.length = 0;
    const before = connections;
    expect((await send("/empty")).status).toBe(204);
    expect(connections).toBe(before + 1);
    expect(requests).toHaveLength(1);
  });

  it("speaks TLS with the host's name (a self-signed certificate is refused)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formdown-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "1",
      ],
      { stdio: "ignore" },
    );
    const pem = {
      key: readFileSync(join(dir, "key.pem")),
      cert: readFileSync(join(dir, "cert.pem")),
    };
    let servername: string | undefined;
    const secure = createTlsServer({
      ...pem,
      SNICallback: (name, done) => {
        servername = name;
        done(null, createSecureContext(pem));
      },
    });
    secure.on("tlsClientError", () => {});
    await new Promise<void>((r) => secure.listen(0, "127.0.0.1", () => r()));
    const tlsPort = (secure.address() as { port: number }).port;
    await expect(
      post(target(new URL(`https://localhost:${tlsPort}/`)), "", "{}", {
        deadlineMs: 2000,
        limit: 1024,
      }),
    ).rejects.toThrow(/self[- ]signed/);
    secure.close();
    expect(servername).toBe("localhost");
  });
});
