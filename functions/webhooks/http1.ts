// The webhook sender's HTTP/1.1 client (issue 28): one POST on a kept-alive connection, its
// answer read as far as it must be — the status, 256 bytes of the body for the log, and the rest
// counted off up to a limit. node:http's client spent about 70 µs of CPU per POST in a profile
// of a busy sender (header objects, events, its parser's callbacks, the agent's bookkeeping);
// this writes one prepared request in one write and frames the answer on the bytes it gets.
// What it does not do, as node:http did not either here: redirects (never followed), Expect,
// request pipelining, HTTP/2.
import { Buffer } from "node:buffer";
import type { LookupFunction } from "node:net";
import net from "node:net";
import tls from "node:tls";
import { Reader } from "./http1-answer.ts";

export interface Answer {
  status: number;
  /** The first bytes of the body, for the log. */
  head: Buffer;
}

export interface Target {
  secure: boolean;
  /** The host name or address, without an IPv6 literal's brackets. */
  host: string;
  port: number;
  /** The request line's target: path and query. */
  path: string;
  /** The Host header. */
  authority: string;
}

/** A URL as the client needs it, checked once. */
export function target(url: URL): Target {
  const secure = url.protocol === "https:";
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: `${url.pathname}${url.search}`,
    authority: url.host,
  };
}

const KEEP_IDLE_MS = 30_000;
const MAX_IDLE = 64;

/** Idle kept-alive connections by origin (and by how their addresses were looked up). */
const idle = new Map<string, net.Socket[]>();

function park(key: string, socket: net.Socket): void {
  const list = idle.get(key) ?? [];
  if (list.length >= MAX_IDLE || socket.destroyed) {
    socket.destroy();
    return;
  }
  socket.unref();
  list.push(socket);
  idle.set(key, list);
}

function unpark(key: string): net.Socket | null {
  const list = idle.get(key);
  while (list && list.length > 0) {
    const socket = list.pop()!;
    if (!socket.destroyed) {
      socket.ref();
      return socket;
    }
  }
  return null;
}

function connect(t: Target, key: string, lookup: LookupFunction | undefined): net.Socket {
  const options = { host: t.host, port: t.port, ...(lookup ? { lookup } : {}) };
  const socket = t.secure
    ? tls.connect({
        ...options,
        ...(net.isIP(t.host) ? {} : { servername: t.host }),
        ALPNProtocols: ["http/1.1"],
      })
    : net.connect(options);
  socket.setNoDelay(true);
  // while parked: the peer closing it, an error, or our idle limit takes it out of the pool
  const drop = () => {
    const list = idle.get(key);
    const at = list?.indexOf(socket) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    socket.destroy();
  };
  socket.on("error", drop);
  socket.on("close", drop);
  socket.setTimeout(KEEP_IDLE_MS, () => {
    if (idle.get(key)?.includes(socket)) drop();
  });
  return socket;
}

/**
 * POSTs `body` to `t` with the given header lines (`name: value\r\n` each, values that cannot
 * hold a line break), on an idle connection to the same origin when there is one. A kept-alive
 * connection the receiver closed in the meantime fails before any answer: the POST is sent once
 * more, on a new connection. Rejects on a connection error or `deadline` (ms from now).
 */
export function post(
  t: Target,
  headerLines: string,
  body: string,
  options: { deadlineMs: number; limit: number; lookup?: LookupFunction },
): Promise<Answer> {
  const key = `${t.secure ? "s" : ""}${options.lookup ? "l" : ""}|${t.host}|${t.port}`;
  const request = `POST ${t.path} HTTP/1.1\r\nhost: ${t.authority}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headerLines}\r\n${body}`;
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let socket: net.Socket;
    const timer = setTimeout(() => {
      fail(new Error(`no answer within ${options.deadlineMs} ms`));
    }, options.deadlineMs);
    function detach() {
      socket.removeListener("data", onData);
      socket.removeListener("close", onClose);
      socket.removeListener("error", onError);
    }
    function end(keep: boolean) {
      clearTimeout(timer);
      detach();
      if (keep) park(key, socket);
      else socket.destroy();
    }
    function fail(error: Error) {
      if (settled) return;
      settled = true;
      end(false);
      reject(error);
    }
    let reader: Reader;
    let reused = false;
    function onData(data: Buffer) {
      let done: boolean;
      try {
        done = reader.feed(data);
      } catch (error) {
        return fail(error as Error);
      }
      if (done && !settled) {
        settled = true;
        end(reader.keepAlive);
        resolve({ status: reader.status, head: Buffer.concat(reader.kept) });
      }
    }
    function onClose() {
      if (settled) return;
      if (reader.closed()) {
        settled = true;
        end(false);
        resolve({ status: reader.status, head: Buffer.concat(reader.kept) });
      } else if (reused && reader.status === 0 && reader.read === 0) {
        // a kept-alive connection closed under us before any answer: once more, on a new one
        send(false);
      } else fail(new Error("the connection closed before the answer was complete"));
    }
    function onError(error: Error) {
      if (reused && reader.status === 0 && reader.read === 0 && !settled) send(false);
      else fail(error);
    }
    function send(reuse: boolean) {
      if (socket) {
        detach();
        socket.destroy();
      }
      const parked = reuse ? unpark(key) : null;
      reused = parked !== null;
      socket = parked ?? connect(t, key, options.lookup);
      reader = new Reader(options.limit);
      socket.on("data", onData);
      socket.once("close", onClose);
      socket.on("error", onError);
      socket.write(request);
    }
    send(true);
  });
}
