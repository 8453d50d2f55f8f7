// One webhook POST: no redirects followed, at most 64 KB of the answer read, a hard deadline for
// the whole exchange, and — in production — the address each connection actually uses checked
// after DNS resolution, so a name cannot be re-pointed at a private address between the check
// and the connect. The bytes go through http1.ts, a lean HTTP/1.1 client on kept-alive
// connections.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { post, type Target, target } from "./http1.ts";
import { isPrivateAddress } from "./url-safety.ts";

export interface PostResult {
  /** The receiver's HTTP status, or null when none came back. */
  status: number | null;
  /** Why it did not count as delivered, or null on a 2xx. */
  error: string | null;
}

export const MAX_ANSWER_BYTES = 64 * 1024;

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

/** Webhook URLs parsed once: a sender posts to the same few again and again. */
const targets = new Map<string, Target | null>();

function parsed(url: string): Target | null {
  let t = targets.get(url);
  if (t === undefined) {
    try {
      const u = new URL(url);
      t = u.protocol === "http:" || u.protocol === "https:" ? target(u) : null;
    } catch {
      t = null;
    }
    if (targets.size >= 1000) targets.clear();
    targets.set(url, t);
  }
  return t;
}

/** Header lines of a delivery: names and values our own (ids, a timestamp, a signature). */
function headerLines(headers: Record<string, string>): string {
  let lines = "user-agent: Formdown-Webhooks/1\r\n";
  for (const name in headers) {
    const value = headers[name]!;
    if (/[\r\n]/.test(value) || /[\r\n:]/.test(name)) throw new Error(`bad header ${name}`);
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const t = parsed(url);
  if (!t) return { status: null, error: "the URL is not valid" };
  if (!options.allowPrivate && isIP(t.host) && isPrivateAddress(t.host))
    return { status: null, error: `${t.host} is a private address webhooks may not reach` };
  try {
    const answer = await post(t, headerLines(headers), body, {
      deadlineMs: options.timeoutMs,
      limit: MAX_ANSWER_BYTES,
      ...(options.allowPrivate ? {} : { lookup: safeLookup as LookupFunction }),
    });
    const { status } = answer;
    if (status >= 200 && status < 300) return { status, error: null };
    const text = answer.head.toString("utf8").slice(0, 200);
    return { status, error: `HTTP ${status}${text ? `: ${text}` : ""}` };
  } catch (error) {
    return { status: null, error: String((error as Error).message ?? error).slice(0, 300) };
  }
}
