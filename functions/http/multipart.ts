// A streaming multipart/form-data reader (RFC 7578) for uploads: parts are read one at a time
// and a file part's bytes flow out as they arrive, so memory holds one chunk and a boundary's
// worth of look-ahead, whatever the file's size. Web streams only (Node and Deno alike).

import { streamed } from "./release-garbage.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Headers of one part, at most this many bytes. */
const MAX_HEADERS = 16 * 1024;

export interface PartHead {
  name: string;
  filename: string | null;
  contentType: string | null;
}

/** The boundary of a multipart/form-data content type, or null. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i >= 0; i = haystack.indexOf(first, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Malformed multipart: the caller answers 400. */
export class MultipartError extends Error {}

export class MultipartReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buf: Uint8Array = new Uint8Array(0);
  #done = false;
  /** `\r\n--boundary`: what ends a part's body. */
  #delimiter: Uint8Array;
  #started = false;
  #inPart = false;

  #limit: number;
  #total = 0;
  /** The body went past `limit` bytes (it was cut off there). */
  overLimit = false;
  /** The last part went past the `max` its body() was given (cut off there). */
  partOverMax = false;
  /** Bytes of the last part's body read so far. */
  partSize = 0;

  /** `limit`: the most bytes of the whole body read before it is refused. */
  constructor(
    body: ReadableStream<Uint8Array>,
    boundary: string,
    limit = Number.POSITIVE_INFINITY,
  ) {
    this.#reader = body.getReader();
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
    this.#limit = limit;
  }

  async #read(): Promise<Uint8Array | null> {
    if (this.#done) return null;
    const { value, done } = await this.#reader.read();
    if (done) {
      this.#done = true;
      return null;
    }
    this.#total += value.byteLength;
    if (this.#total > this.#limit) {
      this.overLimit = true;
      this.#done = true;
      await this.cancel();
      throw new MultipartError(`body over ${this.#limit} bytes`);
    }
    return value;
  }

  async #fill(): Promise<boolean> {
    const chunk = await this.#read();
    if (!chunk) return false;
    this.#buf = concat(this.#buf, chunk);
    return true;
  }

  /** The next part's head, or null after the closing boundary. Skips what is left of the last. */
  async next(): Promise<PartHead | null> {
    if (this.#inPart) await this.body().pipeTo(new WritableStream());
    if (!this.#started) {
      // the first boundary may open the body without the CRLF before it
      this.#buf = concat(encoder.encode("\r\n"), this.#buf);
      this.#started = true;
    }
    let at = indexOf(this.#buf, this.#delimiter);
    while (at < 0) {
      if (this.#buf.length > MAX_HEADERS) this.#buf = this.#buf.slice(-this.#delimiter.length);
      if (!(await this.#fill())) throw new MultipartError("no multipart boundary");
      at = indexOf(this.#buf, this.#delimiter);
    }
    this.#buf = this.#buf.slice(at + this.#delimiter.length);
    while (this.#buf.length < 2) if (!(await this.#fill())) throw new MultipartError("truncated");
    if (this.#buf[0] === 0x2d && this.#buf[1] === 0x2d) return null; // "--": the end
    let end = indexOf(this.#buf, encoder.encode("\r\n\r\n"));
    while (end < 0) {
      if (this.#buf.length > MAX_HEADERS) throw new MultipartError("part headers too long");
      if (!(await this.#fill())) throw new MultipartError("truncated part headers");
      end = indexOf(this.#buf, encoder.encode("\r\n\r\n"));
    }
    const head = decoder.decode(this.#buf.subarray(0, end));
    this.#buf = this.#buf.slice(end + 4);
    this.#inPart = true;
    return parseHead(head);
  }

  /**
   * The current part's bytes as they arrive, cut off (an error) past `max` bytes; read it (or
   * cancel it) before calling next().
   */
  body(max = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
    const keep = this.#delimiter.length - 1;
    this.partSize = 0;
    this.partOverMax = false;
    const counted = (controller: ReadableStreamDefaultController<Uint8Array>) => ({
      enqueue: (bytes: Uint8Array) => {
        this.partSize += bytes.byteLength;
        streamed(bytes.byteLength);
        if (this.partSize > max) {
          this.partOverMax = true;
          throw new MultipartError(`part over ${max} bytes`);
        }
        controller.enqueue(bytes);
      },
      close: () => controller.close(),
      error: (e: unknown) => controller.error(e),
    });
    return new ReadableStream<Uint8Array>(
      {
        pull: async (raw) => {
          const controller = counted(raw);
          for (;;) {
            const at = indexOf(this.#buf, this.#delimiter);
            if (at >= 0) {
              if (at > 0) controller.enqueue(this.#buf.subarray(0, at));
              // leave the delimiter for next()
              this.#buf = this.#buf.subarray(at);
              this.#inPart = false;
              controller.close();
              return;
            }
            if (this.#buf.length > keep) {
              // views, not copies: the bytes are copied once, when the next chunk joins the tail
              controller.enqueue(this.#buf.subarray(0, this.#buf.length - keep));
              this.#buf = this.#buf.subarray(this.#buf.length - keep);
              return;
            }
            // the buffer is a short tail that may begin the delimiter: join the next chunk to it
            // only when the delimiter could cross the seam, so big files are never copied
            const tail = this.#buf;
            const chunk = await this.#read();
            if (!chunk) {
              controller.error(new MultipartError("truncated part"));
              return;
            }
            const seam = indexOf(concat(tail, chunk.subarray(0, keep)), this.#delimiter);
            if ((seam >= 0 && seam < tail.length) || chunk.length < keep) {
              this.#buf = concat(tail, chunk);
              continue;
            }
            if (tail.length > 0) controller.enqueue(tail);
            this.#buf = chunk;
          }
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** The current part as text, refused past `max` bytes. */
  async text(max: number): Promise<string> {
    let out: Uint8Array = new Uint8Array(0);
    for await (const chunk of this.body()) {
      out = concat(out, chunk);
      if (out.length > max) throw new MultipartError("text part too long");
    }
    return decoder.decode(out);
  }

  /** Stops reading the request body. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function parseHead(head: string): PartHead {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    if (name === "content-type") contentType = value;
  }
  const param = (key: string) => {
    const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(disposition);
    if (m) return m[1]!.replace(/\\(.)/g, "$1");
    const bare = new RegExp(`;\\s*${key}=([^;\\s]+)`, "i").exec(disposition);
    return bare ? bare[1]! : null;
  };
  const name = param("name");
  if (!/^form-data/i.test(disposition) || name === null)
    throw new MultipartError("a part without a form-data name");
  return { name, filename: param("filename"), contentType };
}
