// One webhook POST, through undici: no redirects followed, at most 64 KB of the answer read, a
// hard deadline for the whole exchange, connections kept alive per origin, and — in production —
// the address each connection actually uses checked after DNS resolution (undici's `connect`
// options reach `net.connect`/`tls.connect`, so the check is their `lookup`): a name cannot be
// re-pointed at a private address between the URL's check and the connect. undici runs on Deno
// too (its node:net and node:tls), so the Deno drain posts the same way.
import type { LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import type { Agent, Dispatcher } from "undici";
import { resolveHost } from "./resolve.ts";
import { isPrivateAddress } from "./url-safety.ts";

export interface PostResult {
  /** The receiver's HTTP status, or null when none came back. */
  status: number | null;
  /** Why it did not count as delivered, or null on a 2xx. */
  error: string | null;
}

export const MAX_ANSWER_BYTES = 64 * 1024;
/** What the log keeps of an answer's body. */
const HEAD_BYTES = 256;

type Callback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of a connection (resolve.ts: no thread of the process's DNS pool); in production
 * it refuses private addresses, so the check sits where the socket connects.
 */
const lookupFor =
  (allowPrivate: boolean) =>
  (hostname: string, options: { all?: boolean; family?: number | string }, callback: Callback) => {
    const wanted =
      options.family === 6 || options.family === "IPv6"
        ? 6
        : options.family === 4 || options.family === "IPv4"
          ? 4
          : 0;
    resolveHost(hostname, allowPrivate).then(
      (found) => {
        const addresses = wanted ? found.filter((a) => a.family === wanted) : found;
        const bad = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
        if (bad) {
          const message = `${hostname} resolves to ${bad.address}, a private address webhooks may not reach`;
          return callback(Object.assign(new Error(message), { code: "EPRIVATE" }), []);
        }
        if (addresses.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }),
            [],
          );
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };

/**
 * One pool of kept-alive connections per origin; HTTP/1.1 only, as receivers expect. undici is
 * loaded with the first delivery (a few hundred ms on a busy machine: not at every start), and
 * before the deadline starts, which is the receiver's.
 */
let undici: Promise<typeof import("undici")> | undefined;
const agents: { open?: Agent; guarded?: Agent } = {};

async function agentFor(allowPrivate: boolean): Promise<Agent> {
  undici ??= import("undici");
  const { Agent } = await undici;
  if (allowPrivate) {
    agents.open ??= new Agent({
      allowH2: false,
      connect: { lookup: lookupFor(true) as unknown as LookupFunction },
    });
    return agents.open;
  }
  agents.guarded ??= new Agent({
    allowH2: false,
    connect: { lookup: lookupFor(false) as unknown as LookupFunction },
  });
  return agents.guarded;
}

/** What came back: the final status and the first bytes of the body, for the log. */
interface Answer {
  status: number;
  head: Buffer;
}

/**
 * One POST through undici's dispatch API, its answer taken from the handler's callbacks: on a
 * kept-alive loopback receiver 43–51 µs of CPU a POST, where `request()` (a body stream for
 * each answer) cost 80–111 µs and a bare node:http keep-alive POST 111–128 µs (our own HTTP/1.1
 * client, before it, 34–37 µs). Past MAX_ANSWER_BYTES the answer is cut off (its connection
 * with it) and counts as it was; `deadlineMs` bounds the whole exchange.
 */
function dispatch(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
  deadlineMs: number,
) {
  return new Promise<Answer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let late: Error | undefined;
    let status = 0;
    let read = 0;
    const kept: Buffer[] = [];
    const timer = setTimeout(() => {
      late = new Error(`no answer within ${deadlineMs} ms`);
      controller?.abort(late);
      reject(late);
    }, deadlineMs);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ status, head: Buffer.concat(kept) });
    };
    const request = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { "user-agent": "Formdown-Webhooks/1", ...headers },
      body,
    };
    try {
      agent.dispatch(request, {
        onRequestStart(c) {
          controller = c;
          if (late) c.abort(late);
        },
        onResponseStart(_c, statusCode) {
          status = statusCode; // a 1xx is followed by the final answer
        },
        onResponseData(c, chunk) {
          if (read < HEAD_BYTES) kept.push(chunk.subarray(0, HEAD_BYTES - read));
          read += chunk.length;
          if (read < MAX_ANSWER_BYTES) return;
          settle();
          c.abort(new Error("answer over the limit"));
        },
        onResponseEnd: () => settle(),
        onResponseError: (_c, error) => settle(error),
      });
    } catch (error) {
      settle(error as Error);
    }
  });
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { status: null, error: "the URL is not valid" };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return { status: null, error: "the URL is not valid" };
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host))
    return { status: null, error: `${host} is a private address webhooks may not reach` };
  try {
    const agent = await agentFor(options.allowPrivate);
    const { status, head } = await dispatch(agent, u, headers, body, options.timeoutMs);
    if (status >= 200 && status < 300) return { status, error: null };
    // a receiver's NUL is no text a database stores: it failed the batch of outcomes it was in,
    // every account's, at every retry
    const text = head.toString("utf8").replaceAll("\u0000", "").slice(0, 200);
    return { status, error: `HTTP ${status}${text ? `: ${text}` : ""}` };
  } catch (error) {
    return { status: null, error: String((error as Error).message ?? error).slice(0, 300) };
  }
}
