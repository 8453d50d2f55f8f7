// One webhook POST: no redirects followed (node:http never follows them), at most 64 KB of the
// answer read, a hard deadline for the whole exchange, and — in production — the address each
// connection actually uses checked after DNS resolution, so a name cannot be re-pointed at a
// private address between the check and the connect.
import { Buffer } from "node:buffer";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPrivateAddress } from "./url-safety.ts";

export interface PostResult {
  /** The receiver's HTTP status, or null when none came back. */
  status: number | null;
  /** Why it did not count as delivered, or null on a 2xx. */
  error: string | null;
}

export const MAX_ANSWER_BYTES = 64 * 1024;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

type Callback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses private addresses: the check sits where the socket connects. */
function safeLookup(hostname: string, options: object, callback: Callback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const refused = Object.assign(
        new Error(
          `${hostname} resolves to ${bad.address}, a private address webhooks may not reach`,
        ),
        { code: "EPRIVATE" },
      );
      return callback(refused, []);
    }
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve({ status: null, error: "the URL is not valid" });
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host))
      return resolve({
        status: null,
        error: `${host} is a private address webhooks may not reach`,
      });
    const secure = url.protocol === "https:";
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = (secure ? https : http).request(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-length": Buffer.byteLength(body),
        "user-agent": "Formdown-Webhooks/1",
      },
      agent: secure ? agents.https : agents.http,
      ...(options.allowPrivate ? {} : { lookup: safeLookup as never }),
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on("error", (error: Error) => finish({ status: null, error: error.message.slice(0, 300) }));
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => {
        const ok = status >= 200 && status < 300;
        const text = Buffer.concat(chunks).toString("utf8").slice(0, 200);
        finish({ status, error: ok ? null : `HTTP ${status}${text ? `: ${text}` : ""}` });
      };
      res.on("data", (chunk: Buffer) => {
        if (read < 256) chunks.push(chunk);
        read += chunk.length;
        // enough read: the status is what counts, and a receiver cannot make us buffer more
        if (read >= MAX_ANSWER_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.end(body);
  });
}
