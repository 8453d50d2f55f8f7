// The receivers of bench/webhooks.ts, in their own process so that the bench measures the
// server rather than the load generator and the receiver sharing one event loop:
//   fast — answers 204 at once and counts; GET answers the count so far;
//   hang — accepts every request and never answers; GET drops the ones it holds.
// Prints "FAST <url> HANG <url>" once both listen.
//
// The fast one is a minimal HTTP/1.1 server on a raw socket: it frames each request by its
// Content-Length and writes a canned 204, keeping the connection alive. On this 2-core machine
// the receiver shares the CPU with the server under test; node:http spent ~55 µs per request,
// this ~10 µs, the cost of a receiver on another machine being nobody's here.
// BENCH_RECEIVER=node uses node:http instead.
import { createServer, type ServerResponse } from "node:http";
import { createServer as createTcpServer } from "node:net";

let received = 0;
const hanging: ServerResponse[] = [];

const countReply = () => {
  const text = String(received);
  return Buffer.from(
    `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n\r\n${text}`,
  );
};
const noContent = Buffer.from("HTTP/1.1 204 No Content\r\n\r\n");

const rawFast = createTcpServer((socket) => {
  let pending: Buffer | null = null;
  socket.on("data", (data: Buffer) => {
    let buf = pending ? Buffer.concat([pending, data]) : data;
    const replies: Buffer[] = [];
    for (;;) {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) break;
      const head = buf.toString("latin1", 0, end);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const size = end + 4 + (length ? Number(length[1]) : 0);
      if (buf.length < size) break;
      buf = buf.subarray(size);
      if (head.startsWith("GET ")) replies.push(countReply());
      else {
        received++;
        replies.push(noContent);
      }
    }
    pending = buf.length > 0 ? Buffer.from(buf) : null;
    if (replies.length > 0)
      socket.write(replies.length === 1 ? replies[0]! : Buffer.concat(replies));
  });
  socket.on("error", () => {});
});

const nodeFast = createServer((req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "text/plain" }).end(String(received));
    return;
  }
  req.resume().on("end", () => {
    received++;
    res.writeHead(204).end();
  });
});

const hang = createServer((req, res) => {
  if (req.method === "GET") {
    for (const held of hanging.splice(0)) held.destroy();
    res.writeHead(204).end();
    return;
  }
  req.resume();
  hanging.push(res);
});

const listen = (srv: {
  listen: (port: number, host: string, cb: () => void) => unknown;
  address: () => unknown;
}) =>
  new Promise<string>((r) =>
    srv.listen(0, "127.0.0.1", () =>
      r(`http://127.0.0.1:${(srv.address() as { port: number }).port}/`),
    ),
  );
const fast = process.env.BENCH_RECEIVER === "node" ? nodeFast : rawFast;
console.log(`FAST ${await listen(fast)} HANG ${await listen(hang)}`);
process.on("SIGTERM", () => process.exit(0));
