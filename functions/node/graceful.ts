import type { Server } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { within } from "../http/draining.ts";

/**
 * The Node half of a graceful stop: the listening socket closes at once, while kept-alive
 * connections are left to end by themselves — after an answer with `Connection: close`
 * (http/draining.ts), or on their keep-alive timeout, which clients know from the `Keep-Alive`
 * header and honour first. Closing an idle one ourselves races a request the client is sending
 * on it: that request would be cut without an answer. Whatever is still open after `ms` is closed.
 */
export function trackConnections(server: Server): (ms: number) => Promise<void> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  return async (ms) => {
    // net.Server's close: http.Server's would also close the idle connections (Node ≥ 19)
    const stopped = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve()),
    );
    const gone = new Promise<void>((resolve) => {
      const check = () => (sockets.size === 0 ? resolve() : setTimeout(check, 50).unref());
      check();
    });
    if (!(await within(gone, ms))) server.closeAllConnections();
    await stopped;
  };
}
