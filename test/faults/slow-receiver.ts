// A loopback webhook receiver that holds each request until told to answer (an attempt is under
// way when the server is stopped), counting deliveries by webhook-id.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export async function startSlowReceiver() {
  const byId = new Map<string, number>();
  const held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      byId.set(id, (byId.get(id) ?? 0) + 1);
      if (holding) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    byId,
    held: () => held.length,
    /** Answers the held requests 204 and every later one at once. */
    release() {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
