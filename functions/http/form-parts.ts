// multipart/form-data (RFC 7578) read part by part with multipasta, a maintained parser that
// hands out a file's bytes as they arrive (@remix-run/multipart-parser holds each part whole: a
// 60 MB file cost 63 MB of RSS there, 11 MB here; SPEC §19 wants memory not to follow a file's
// size). The request is read only as fast as a file's reader takes its bytes, so memory holds
// about one chunk whatever the file's size. Web streams only: Node and Deno alike.
import { decodeField, type MultipartError, make, type PartInfo } from "multipasta";
import { streamed } from "./release-garbage.ts";

/** Malformed or over a limit: `reason` says which (multipasta's error). */
export class FormPartsError extends Error {
  readonly reason: MultipartError;
  constructor(reason: MultipartError) {
    super(`multipart: ${reason._tag}${"limit" in reason ? ` ${reason.limit}` : ""}`);
    this.reason = reason;
  }
}

/** A file part: its bytes are read once, through `stream(max)`. */
export interface FilePart {
  kind: "file";
  name: string;
  filename: string;
  contentType: string;
  /** The bytes as they arrive; an error past `max` bytes (then `overMax` is true). */
  stream(max: number): ReadableStream<Uint8Array>;
  /** Bytes read so far, and whether they went past the `max` given to stream(). */
  size: number;
  overMax: boolean;
}
export type FormPart = { kind: "field"; name: string; value: string } | FilePart;

export interface FormLimits {
  /** The whole body, in bytes. */
  maxTotalSize: number;
  /** A text field, in bytes. */
  maxFieldSize: number;
  maxParts: number;
  /** Which parts are files (streamed); the others are text fields (held, up to maxFieldSize). */
  isFile(info: PartInfo): boolean;
}

/** A multipart body being read: its parts in order, and what stopped it, if anything did. */
export interface FormParts {
  parts: AsyncGenerator<FormPart>;
  /** The parser's error (malformed, a limit passed), once there is one. */
  failure(): MultipartError | undefined;
}

/**
 * The parts of a multipart body, in order. A part is only read when the one before it was: a
 * file's bytes are parsed as its stream is pulled (skipped if the next part is asked for first).
 * The parts throw FormPartsError on a malformed body or a limit passed; the request is cancelled
 * once they are left.
 */
export function formParts(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limits: FormLimits,
): FormParts {
  const reader = body.getReader();
  const ready: FormPart[] = [];
  /** Files whose bytes are dropped: the next part was asked for before they were read. */
  const skipped = new WeakSet<FormPart>();
  let failure: MultipartError | undefined;
  let done = false;
  const parser = make({
    headers: { "content-type": contentType },
    ...limits,
    onField: (info, value) =>
      ready.push({ kind: "field", name: info.name, value: decodeField(info, value) }),
    onFile: (info) => {
      const file = filePart(info, feed);
      ready.push(file.part);
      return (chunk) => {
        if (!skipped.has(file.part)) file.push(chunk);
      };
    },
    onError: (error) => {
      failure ??= error;
    },
    onDone: () => {
      done = true;
    },
  });
  /**
   * A chunk's last one or two bytes when they are dashes, held back for the next chunk:
   * multipasta 0.2.8 takes a closing `--` cut between two chunks for a part's headers (and fails
   * the body), so no chunk may end between those two dashes.
   */
  let held: Uint8Array | null = null;
  /** Reads one chunk of the request into the parser; false once nothing more can come. */
  async function feed(): Promise<boolean> {
    if (failure) throw new FormPartsError(failure);
    if (done) return false;
    const { value, done: ended } = await reader.read();
    if (ended) {
      if (held) parser.write(held);
      parser.end();
    } else {
      const chunk = held ? joined(held, value) : value;
      const dashes = chunk.at(-1) !== DASH ? 0 : chunk.at(-2) === DASH ? 2 : 1;
      held = dashes > 0 ? chunk.slice(-dashes) : null;
      if (chunk.length > dashes) parser.write(chunk.subarray(0, chunk.length - dashes));
    }
    if (failure) throw new FormPartsError(failure);
    return !ended;
  }
  async function* parts(): AsyncGenerator<FormPart> {
    try {
      for (;;) {
        while (ready.length === 0 && (await feed()));
        const part = ready.shift();
        if (!part) return;
        yield part;
        skipped.add(part);
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  return { parts: parts(), failure: () => failure };
}

function filePart(info: PartInfo, feed: () => Promise<boolean>) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Bytes parsed before the stream was asked for (the part's first, in its headers' chunk). */
  const early: Uint8Array[] = [];
  let max = Number.POSITIVE_INFINITY;
  let ended = false;
  const part: FilePart = {
    kind: "file",
    name: info.name,
    filename: info.filename ?? "",
    contentType: info.contentType,
    size: 0,
    overMax: false,
    stream(most) {
      max = most;
      return new ReadableStream<Uint8Array>(
        {
          start: (c) => {
            controller = c;
            for (const chunk of early.splice(0)) deliver(chunk);
            if (ended) c.close();
          },
          async pull() {
            const before = part.size;
            while (part.size === before && !ended && (await feed()));
            if (part.size === before && !ended) throw new FormPartsError({ _tag: "EndNotReached" });
          },
        },
        { highWaterMark: 0 },
      );
    },
  };
  function deliver(chunk: Uint8Array) {
    part.size += chunk.byteLength;
    streamed(chunk.byteLength);
    if (part.size > max) {
      part.overMax = true;
      throw new FormPartsError({ _tag: "ReachedLimit", limit: "MaxPartSize" });
    }
    controller!.enqueue(chunk);
  }
  const push = (chunk: Uint8Array | null) => {
    if (chunk === null) {
      ended = true;
      controller?.close();
    } else if (controller) deliver(chunk);
    else early.push(chunk);
  };
  return { part, push };
}

const DASH = 0x2d;

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
