// A ZIP archive written as it goes (PKWARE APPNOTE 6.3): each entry deflated through one zlib
// stream, its CRC and sizes in a data descriptor after it, the central directory at the end. It
// holds no entry's bytes beyond what deflate has not yet handed on, so an XLSX sheet of a million
// rows streams in the memory of one batch (xlsx.ts). Sizes past 4 GiB get ZIP64 records, as Go's
// archive/zip writes them: a 24-byte data descriptor and ZIP64 fields in the central directory.
import { Buffer } from "node:buffer";
import * as zlib from "node:zlib";

const MAX32 = 0xffffffff;

/** CRC-32 (IEEE), zlib's own where the runtime has it (Node 22.2+), else a table's. */
const crc32: (data: Uint8Array, value: number) => number =
  typeof zlib.crc32 === "function" ? zlib.crc32 : tableCrc32;

let TABLE: Uint32Array | null = null;
function tableCrc32(data: Uint8Array, value: number): number {
  if (!TABLE) {
    TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      TABLE[n] = c >>> 0;
    }
  }
  let c = ~value >>> 0;
  for (const byte of data) c = TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date of `at` (local time, two-second steps), as ZIP headers keep them. */
function dosTime(at: Date): [number, number] {
  const year = Math.max(1980, at.getFullYear());
  return [
    (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  ];
}

/**
 * A ZIP writer whose output is pulled as chunks: `entry(name, parts)` deflates the parts of one
 * file, yielding the archive's bytes as deflate produces them, and `end()` the central directory.
 */
export function zipWriter(at = new Date()) {
  const [time, date] = dosTime(at);
  const entries: Entry[] = [];
  let offset = 0;
  const counted = (b: Buffer) => {
    offset += b.byteLength;
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  };

  /** One file of these parts; a part's bytes may be used again once the next part is asked for. */
  async function* entry(
    name: string,
    parts: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  ) {
    const e: Entry = { name: Buffer.from(name), crc: 0, compressed: 0, size: 0, offset };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4); // version needed: 2.0, deflate
    head.writeUInt16LE(0x0808, 6); // sizes in a data descriptor after the data; UTF-8 names
    head.writeUInt16LE(8, 8); // deflate
    head.writeUInt16LE(time, 10);
    head.writeUInt16LE(date, 12);
    head.writeUInt16LE(e.name.byteLength, 26);
    yield counted(Buffer.concat([head, e.name]));
    const deflate = zlib.createDeflateRaw();
    const out: Buffer[] = [];
    let failed: Error | null = null;
    deflate.on("data", (c: Buffer) => out.push(c));
    deflate.on("error", (error) => {
      failed = error;
    });
    const drained = function* () {
      while (out.length > 0) {
        const c = out.shift()!;
        e.compressed += c.byteLength;
        yield counted(c);
      }
    };
    // each part deflated before the next is taken: memory holds one part and its output
    const put = (data: Uint8Array) =>
      new Promise<void>((resolve, reject) =>
        deflate.write(data, (error) => (error ? reject(error) : resolve())),
      );
    for await (const part of parts) {
      if (part.length === 0) continue;
      const data = typeof part === "string" ? Buffer.from(part) : part;
      e.crc = crc32(data, e.crc);
      e.size += data.byteLength;
      await put(data);
      if (failed) throw failed;
      yield* drained();
    }
    await new Promise<void>((resolve, reject) => {
      deflate.once("end", resolve);
      deflate.once("error", reject);
      deflate.end();
    });
    yield* drained();
    const wide = e.compressed > MAX32 || e.size > MAX32;
    const tail = Buffer.alloc(wide ? 24 : 16);
    tail.writeUInt32LE(0x08074b50, 0);
    tail.writeUInt32LE(e.crc, 4);
    if (wide) {
      tail.writeBigUInt64LE(BigInt(e.compressed), 8);
      tail.writeBigUInt64LE(BigInt(e.size), 16);
    } else {
      tail.writeUInt32LE(e.compressed, 8);
      tail.writeUInt32LE(e.size, 12);
    }
    yield counted(tail);
    entries.push(e);
  }

  function end(): Uint8Array {
    const start = offset;
    const records: Buffer[] = [];
    for (const e of entries) {
      // ZIP64: the fields past 32 bits in an extra field, in the order APPNOTE 4.5.3 sets
      const big = [e.size, e.compressed, e.offset].filter((v) => v >= MAX32);
      const extra = Buffer.alloc(big.length > 0 ? 4 + 8 * big.length : 0);
      if (big.length > 0) {
        extra.writeUInt16LE(0x0001, 0);
        extra.writeUInt16LE(8 * big.length, 2);
        for (const [i, v] of big.entries()) extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i);
      }
      const r = Buffer.alloc(46);
      r.writeUInt32LE(0x02014b50, 0);
      r.writeUInt16LE(big.length > 0 ? 45 : 20, 4); // made by
      r.writeUInt16LE(big.length > 0 ? 45 : 20, 6); // needed
      r.writeUInt16LE(0x0808, 8);
      r.writeUInt16LE(8, 10);
      r.writeUInt16LE(time, 12);
      r.writeUInt16LE(date, 14);
      r.writeUInt32LE(e.crc, 16);
      r.writeUInt32LE(Math.min(e.compressed, MAX32), 20);
      r.writeUInt32LE(Math.min(e.size, MAX32), 24);
      r.writeUInt16LE(e.name.byteLength, 28);
      r.writeUInt16LE(extra.byteLength, 30);
      r.writeUInt32LE(Math.min(e.offset, MAX32), 42);
      records.push(r, e.name, extra);
    }
    const directory = Buffer.concat(records);
    const size = directory.byteLength;
    const parts = [directory];
    if (start >= MAX32 || entries.length >= 0xffff) {
      const z = Buffer.alloc(56 + 20);
      z.writeUInt32LE(0x06064b50, 0); // ZIP64 end of central directory
      z.writeBigUInt64LE(44n, 4);
      z.writeUInt16LE(45, 12);
      z.writeUInt16LE(45, 14);
      z.writeBigUInt64LE(BigInt(entries.length), 24);
      z.writeBigUInt64LE(BigInt(entries.length), 32);
      z.writeBigUInt64LE(BigInt(size), 40);
      z.writeBigUInt64LE(BigInt(start), 48);
      z.writeUInt32LE(0x07064b50, 56); // its locator
      z.writeBigUInt64LE(BigInt(start + size), 64);
      z.writeUInt32LE(1, 72);
      parts.push(z);
    }
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
    eocd.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
    eocd.writeUInt32LE(size, 12);
    eocd.writeUInt32LE(Math.min(start, MAX32), 16);
    parts.push(eocd);
    return counted(Buffer.concat(parts));
  }

  return { entry, end };
}
