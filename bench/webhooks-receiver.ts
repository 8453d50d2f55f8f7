// The receivers of bench/webhooks.ts, in their own process so that the bench measures the
// server rather than the load generator and the receiver sharing one event loop:
//   fast — answers 204 at once and counts; GET answers the count so far;
//   hang — accepts every request and never answers; GET drops the ones it holds.
// Prints "FAST <url> HANG <url>" once both listen.
import { createServer, type ServerResponse } from "node:http";

let received = 0;
const hanging: ServerResponse[] = [];
const fast = createServer((req, res) => {
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
const listen = (srv: ReturnType<typeof createServer>) =>
  new Promise<string>((r) =>
    srv.listen(0, "127.0.0.1", () =>
      r(`http://127.0.0.1:${(srv.address() as { port: number }).port}/`),
    ),
  );
console.log(`FAST ${await listen(fast)} HANG ${await listen(hang)}`);
process.on("SIGTERM", () => process.exit(0));
