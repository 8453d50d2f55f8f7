// A static host that knows files only, as a CDN or a bucket does: `/x/` and `/x` serve
// `x/index.html`, anything else that is not a file is 404. It reads no `_redirects` or `_headers`.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export interface StaticHost {
  url: string;
  /** Requests by path, to tell what the host was asked. */
  asked: string[];
  close(): Promise<void>;
}

export async function startStatic(dir: string, port = 0): Promise<StaticHost> {
  const root = resolve(dir);
  const asked: string[] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    asked.push(path);
    const file = join(root, path, extname(path) ? "" : "index.html");
    if (!file.startsWith(root)) return void res.writeHead(404).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    asked,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
