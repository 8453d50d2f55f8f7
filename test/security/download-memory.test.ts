// Eighth review, part C (2026-11-28): `GET /api/uploads/<key>` (no key, no rate limit: the URL an
// upload answers) read the whole file into memory for each request, and held it until the client
// had taken it. Twenty downloads of one 100 MB upload that were sent and never read held 2.3 GB
// of the server's memory and growing (any anonymous respondent's upload to a field of `max_mb:
// 100`, or ten times as many of a default 10 MB one): SPEC §23 "no request ends the process".
// The file now streams from storage as the client reads it (local disk and Supabase alike), and a
// HEAD lets it go (Hono drops a HEAD's body unread: each kept a file open).
import { readdirSync, readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MB = 1024 * 1024;
const SIZE = 32 * MB;
const CLIENTS = 10;

describe("downloads of an upload", () => {
  let s: TestServer;
  let url: string;
  const bytes = new Uint8Array(SIZE).map((_, i) => (i * 7919) % 251);
  beforeAll(async () => {
    s = await startTestServer();
    const made = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: {
        title: "Files",
        slug: "files",
        humanness: false,
        fields: [{ id: "doc", type: "file", label: "Doc", max_mb: 40 }],
      },
    });
    expect(made.status).toBe(201);
    // an anonymous respondent's upload
    const body = new FormData();
    body.set("field", "doc");
    body.set("file", new File([bytes], "big.bin"));
    const res = await fetch(`${s.url}/api/forms/files/uploads`, { method: "POST", body });
    expect(res.status).toBe(201);
    url = ((await res.json()) as { url: string }).url;
  });
  afterAll(() => s?.close());

  it("streams the file: clients that do not read do not make the server hold it", async () => {
    const { hostname, port, pathname } = new URL(url);
    const before = process.memoryUsage().arrayBuffers;
    const sockets: Socket[] = [];
    try {
      // each client sends its request and reads only the first bytes of the answer
      await Promise.all(
        Array.from(
          { length: CLIENTS },
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = connect(Number(port), hostname);
              sockets.push(socket);
              socket.once("error", reject);
              socket.once("data", (chunk: Buffer) => {
                socket.pause();
                expect(chunk.toString("latin1")).toMatch(/^HTTP\/1\.1 200/);
                resolve();
              });
              socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
            }),
        ),
      );
      // read whole per request, ten answers held 320 MB here; streamed, a few chunks each
      const grown = process.memoryUsage().arrayBuffers - before;
      expect(grown).toBeLessThan((CLIENTS * SIZE) / 4);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // and a client that reads gets every byte
    const back = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(back.length).toBe(SIZE);
    expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
    expect((await fetch(`${url}x`)).status).toBe(404);
  });

  it("answers a HEAD without keeping the file open", async () => {
    const name = new URL(url).pathname.split("/").slice(-2).join("/");
    const open = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith(name);
        } catch {
          return false;
        }
      }).length;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe("attachment");
      await res.arrayBuffer();
    }
    expect(open()).toBe(0);
  });
});
