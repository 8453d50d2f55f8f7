// Reading one HTTP/1.1 answer off a socket for the webhook client (http1.ts): the head, then a
// body framed by its length, by chunks, or by the connection's close — as far as it must be read.
import { Buffer } from "node:buffer";

const MAX_HEAD = 16 * 1024;
const CRLF2 = Buffer.from("\r\n\r\n");

/** Reads one answer off a socket: head, then a body framed by length, chunks, or close. */
export class Reader {
  status = 0;
  private pending: Buffer | null = null;
  private headDone = false;
  /** Body bytes still expected: a count, "chunked", "close" (until the peer closes) or done (0). */
  private left: number | "chunked" | "close" = 0;
  /** Within chunked: bytes of the current chunk left, or -1 between chunks. */
  private chunkLeft = -1;
  private trailers = false;
  keepAlive = true;
  read = 0;
  readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Takes bytes; answers true once the answer is complete (or its limit read). */
  feed(data: Buffer): boolean {
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = null;
    while (!this.headDone) {
      const end = buf.indexOf(CRLF2);
      if (end < 0) {
        if (buf.length > MAX_HEAD) throw new Error("the answer's headers are too large");
        this.pending = buf;
        return false;
      }
      if (!this.head(buf.toString("latin1", 0, end))) {
        // an informational answer (100, 103): the real one follows
        buf = buf.subarray(end + 4);
        continue;
      }
      buf = buf.subarray(end + 4);
    }
    return this.body(buf);
  }

  /** The peer closed: complete if the body ran until the close. */
  closed(): boolean {
    return this.headDone && this.left === "close";
  }

  private head(text: string): boolean {
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(text);
    if (!m) throw new Error("the answer is not HTTP/1.x");
    const status = Number(m[2]);
    if (status >= 100 && status < 200 && status !== 101) return false;
    this.status = status;
    this.headDone = true;
    let length: number | null = null;
    let chunked = false;
    let connection = "";
    for (const line of text.split("\r\n").slice(1)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === "content-length") length = Number(value);
      else if (name === "transfer-encoding") chunked = /(^|,)\s*chunked\s*$/.test(value);
      else if (name === "connection") connection = value;
    }
    this.keepAlive =
      m[1] === "1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    if (status === 204 || status === 304 || status === 101) this.left = 0;
    else if (chunked) this.left = "chunked";
    else if (length !== null && Number.isSafeInteger(length) && length >= 0) this.left = length;
    else this.left = "close";
    if (this.left === "close" || status === 101) this.keepAlive = false;
    return true;
  }

  private take(data: Buffer): void {
    this.read += data.length;
    if (this.keptBytes < 256) {
      this.kept.push(data.subarray(0, 256 - this.keptBytes));
      this.keptBytes += Math.min(data.length, 256 - this.keptBytes);
    }
  }

  private body(buf: Buffer): boolean {
    if (this.left === "close") {
      this.take(buf);
      return this.overLimit();
    }
    if (typeof this.left === "number") {
      const part = buf.subarray(0, this.left);
      this.take(part);
      this.left -= part.length;
      // bytes past the answer: nothing was asked for them, so the connection is not reused
      if (buf.length > part.length) this.keepAlive = false;
      return this.left === 0 || this.overLimit();
    }
    return this.chunks(buf);
  }

  private chunks(buf: Buffer): boolean {
    while (buf.length > 0) {
      if (this.trailers) {
        // after the last chunk: trailer lines until an empty one
        const end = buf.indexOf("\r\n");
        if (end < 0) break;
        const empty = end === 0;
        buf = buf.subarray(end + 2);
        if (empty) {
          if (buf.length > 0) this.keepAlive = false;
          this.left = 0;
          return true;
        }
        continue;
      }
      if (this.chunkLeft < 0) {
        const end = buf.indexOf("\r\n");
        if (end < 0) break;
        const size = Number.parseInt(buf.toString("latin1", 0, end).split(";")[0]!.trim(), 16);
        if (!Number.isSafeInteger(size) || size < 0)
          throw new Error("the answer's chunks are malformed");
        buf = buf.subarray(end + 2);
        if (size === 0) {
          this.trailers = true;
          continue;
        }
        this.chunkLeft = size + 2; // the data and its CRLF
        continue;
      }
      // of what is left of the chunk, all but its last two bytes (the CRLF) are data
      const part = buf.subarray(0, this.chunkLeft);
      this.take(part.subarray(0, Math.min(part.length, Math.max(0, this.chunkLeft - 2))));
      this.chunkLeft -= part.length;
      buf = buf.subarray(part.length);
      if (this.chunkLeft === 0) this.chunkLeft = -1;
      if (this.overLimit()) return true;
    }
    if (buf.length > 0) {
      if (buf.length > MAX_HEAD) throw new Error("the answer's chunks are malformed");
      this.pending = buf;
    }
    return false;
  }

  private overLimit(): boolean {
    if (this.read < this.limit) return false;
    // enough read: the status is what counts, and a receiver cannot make us read more
    this.keepAlive = false;
    return true;
  }
}
