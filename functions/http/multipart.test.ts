import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartError, MultipartReader } from "./multipart.ts";

const encoder = new TextEncoder();

/** `bytes` as a stream of chunks of `size` bytes: delimiters fall across every possible seam. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function read(body: Uint8Array, size: number) {
  const reader = new MultipartReader(chunked(body, size), "XyZ");
  const parts: { name: string; filename: string | null; type: string | null; data: number[] }[] =
    [];
  for (let head = await reader.next(); head; head = await reader.next()) {
    const data: number[] = [];
    for await (const chunk of reader.body()) data.push(...chunk);
    parts.push({ name: head.name, filename: head.filename, type: head.contentType, data });
  }
  return parts;
}

describe("the streaming multipart reader", () => {
  const file = Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 256);
  // file bytes that look like the start of a delimiter must stay file bytes
  file.set(encoder.encode("\r\n--XyY\r\n--Xy"), 1000);
  const body = new Uint8Array([
    ...encoder.encode(
      'preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="field"\r\n\r\ncv\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a \\"b\\".pdf"\r\nContent-Type: application/pdf\r\n\r\n',
    ),
    ...file,
    ...encoder.encode("\r\n--XyZ--\r\n"),
  ]);

  it.each([1, 2, 5, 7, 16, 64, 4096])(
    "reads every part whole in chunks of %i bytes",
    async (size) => {
      const parts = await read(body, size);
      expect(parts.map((p) => [p.name, p.filename, p.type])).toEqual([
        ["field", null, null],
        ["file", 'a "b".pdf', "application/pdf"],
      ]);
      expect(new TextDecoder().decode(Uint8Array.from(parts[0]!.data))).toBe("cv");
      expect(parts[1]!.data).toEqual([...file]);
    },
  );

  it("refuses a body cut off inside a part", async () => {
    await expect(read(body.slice(0, body.length - 40), 64)).rejects.toBeInstanceOf(MultipartError);
  });

  it("reads the boundary of a content type, quoted or not", () => {
    expect(boundaryOf("multipart/form-data; boundary=abc")).toBe("abc");
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data")).toBeNull();
  });
});
