// The limit of a webhook delivery's cost (issue 28): a bare `http.request` client with a
// keep-alive agent POSTing one signed body, the size of a delivery's, to the same receiver, as
// many at a time as the sender allows. Prints "BARE <µs of CPU per POST>" for bench/webhooks.ts.
// Usage: node bench/webhooks-bare.ts <receiver url> [posts] [in flight]
import http from "node:http";
import { signedHeaders, signingKeyObject } from "../functions/webhooks/signing.ts";

const [url = "", total = "20000", inFlight = "32"] = process.argv.slice(2);
const body = JSON.stringify({
  type: "response.created",
  timestamp: new Date().toISOString(),
  data: {
    form: { form_id: crypto.randomUUID(), slug: "bench", title: "Webhooks bench" },
    response: {
      id: crypto.randomUUID(),
      submitted_at: new Date().toISOString(),
      payload: { name: "Ada Lovelace", score: 9, tags: ["a", "c"] },
    },
  },
});
const headers = {
  ...signedHeaders(
    signingKeyObject(`whsec_${Buffer.alloc(24, 7).toString("base64")}`),
    "msg_1",
    body,
  ),
  "content-length": String(Buffer.byteLength(body)),
};
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const target = new URL(url);

const post = () =>
  new Promise<void>((resolve, reject) => {
    const req = http.request(target, { method: "POST", headers, agent }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end(body);
  });

let left = Number(total);
const worker = async () => {
  while (left-- > 0) await post();
};
// warm the sockets and the JIT first, then count
await Promise.all(Array.from({ length: Number(inFlight) }, () => post()));
const before = process.cpuUsage();
await Promise.all(Array.from({ length: Number(inFlight) }, worker));
const used = process.cpuUsage(before);
console.log(
  `BARE ${Math.round((used.user + used.system) / Number(total))} ${Buffer.byteLength(body)}`,
);
agent.destroy();
