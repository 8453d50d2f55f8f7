import type { Context } from "hono";
import { raise } from "../../src/core/errors.ts";
import { capped } from "../streams.ts";
import { UNSTORABLE_TEXT_MESSAGE } from "./errors.ts";

export const MAX_BODY = 1024 * 1024;
/** Deeper JSON than any form, answer or setting needs; deeper would only exhaust recursion. */
export const MAX_DEPTH = 64;
/**
 * Keys (object members) in one JSON body: a whole form definition names a few thousand, some
 * ten thousand at the bounds (SPEC §19). A body naming more is refused before it is parsed.
 */
export const MAX_JSON_KEYS = 50_000;
const utf8 = new TextDecoder();

/** The Node request behind a Hono context on @hono/node-server; absent on other runtimes. */
interface NodeIncoming {
  readableDidRead?: boolean;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
}

function nodeIncoming(c: Context): NodeIncoming | null {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
  return incoming && typeof incoming.on === "function" && !incoming.readableDidRead
    ? incoming
    : null;
}

/**
 * The body's bytes, at most `limit` of them (413 past it, without reading the rest). On Node the
 * request stream is read directly: building a Web Request and its ReadableStream for every
 * submit cost more CPU than the submit's own work.
 */
function readNode(incoming: NodeIncoming, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: unknown) => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        incoming.pause();
        try {
          raise("payload_too_large", `The request body is over ${limit} bytes.`);
        } catch (error) {
          done(error);
        }
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => done(new Error("The client closed the connection."));
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

async function readWeb(c: Context, limit: number): Promise<Uint8Array> {
  const body = c.req.raw.body;
  if (!body) return new Uint8Array();
  // a declared length (checked against the limit by the caller) frames the body on the wire: the
  // runtime reads that many bytes and no more, without a stream piped through JavaScript (on
  // Deno's first request, 2-3 ms against 4-7)
  if (/^\d+$/.test(c.req.header("content-length") ?? "")) {
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    if (bytes.byteLength > limit)
      raise("payload_too_large", `The request body is over ${limit} bytes.`);
    return bytes;
  }
  let over = false;
  try {
    const limited = capped(body, limit, () => {
      over = true;
    });
    return new Uint8Array(await new Response(limited).arrayBuffer());
  } catch (error) {
    if (over) raise("payload_too_large", `The request body is over ${limit} bytes.`);
    throw error;
  }
}

/** Bodies larger than this are parsed in a turn of the event loop of their own. */
const HEAVY = 64 * 1024;
let heavyQueue: Promise<void> = Promise.resolve();
const nextTurn: (resume: () => void) => unknown = globalThis.setImmediate ?? setTimeout;

/**
 * Waits for a turn of the event loop after every heavy body before it: four 1 MB bodies that
 * arrive together would otherwise be parsed and checked one after the other before any timer or
 * other request ran (SPEC §23: no request holds the loop more than 1 s). Walks of a form's logic
 * take their turns in the same line (services/logic-tests.ts, submit-answer.ts, versions/count.ts):
 * each waiter gets a turn of its own, so thirty that resume together do not run back to back.
 */
export function ownTurn(): Promise<void> {
  const mine = heavyQueue.then(() => new Promise<void>((resume) => nextTurn(resume)));
  heavyQueue = mine;
  return mine;
}

/**
 * The body's bytes, at most `limit` of them: 413 for a declared length over it, and for a body
 * sent without one (chunked) as soon as it passes it.
 */
export async function readBytes(c: Context, limit = MAX_BODY): Promise<Uint8Array> {
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > limit) raise("payload_too_large", `The request body is over ${limit} bytes.`);
  const incoming = nodeIncoming(c);
  const bytes = incoming ? await readNode(incoming, limit) : await readWeb(c, limit);
  if (bytes.byteLength > HEAVY) await ownTurn();
  return bytes;
}

/**
 * True when a string in the value (or a key) cannot be stored: a NUL character, or a lone UTF-16
 * surrogate, which only a JSON \u escape can produce and which jsonb refuses.
 */
export function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0") || !value.isWellFormed();
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value && typeof value === "object")
    return Object.entries(value).some(([k, v]) => holdsUnstorableText(k) || holdsUnstorableText(v));
  return false;
}

/**
 * One pass over a JSON text before it is parsed: whether it nests deeper than `limit` (it stops
 * there), and how many object members (keys) it names. JSON.parse interns every key: 1 MB of
 * 92,000 short keys costs it 32 ms of one core, 1 MB of numbers 3 ms (SPEC §23, issue 41 item 8).
 */
export function jsonShape(text: string, limit = MAX_DEPTH): { deeper: boolean; members: number } {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 58) members++;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return { deeper: true, members };
    } else if (c === 93 || c === 125) depth--;
  }
  return { deeper: false, members };
}

/**
 * Reads a JSON object body of at most 1 MiB; 413 above, 400 for anything but a JSON object (an
 * empty body is `{}` when `emptyOk`) or one that names more than `maxKeys` keys (refused before
 * it is parsed).
 */
export async function readJson(
  c: Context,
  limit = MAX_BODY,
  emptyOk = false,
  maxKeys = MAX_JSON_KEYS,
): Promise<Record<string, unknown>> {
  const bytes = await readBytes(c, limit);
  const text = utf8.decode(bytes);
  if (text.trim() === "" && emptyOk) return {};
  if (text.trim() === "") raise("invalid_request", "The request body must be a JSON object.");
  const shape = jsonShape(text);
  if (shape.deeper)
    raise("invalid_request", `The request body nests deeper than ${MAX_DEPTH} levels.`);
  if (shape.members > maxKeys)
    raise(
      "validation_failed",
      `The request body names ${shape.members.toLocaleString("en-US")} keys; this one takes at most ${maxKeys.toLocaleString("en-US")}.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    raise("invalid_request", "The request body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    raise("invalid_request", "The request body must be a JSON object.");
  }
  // decoded bytes are well-formed; only an escape can bring in what the database refuses
  if (text.includes("\\u") && holdsUnstorableText(value))
    raise("invalid_request", UNSTORABLE_TEXT_MESSAGE);
  return value as Record<string, unknown>;
}
