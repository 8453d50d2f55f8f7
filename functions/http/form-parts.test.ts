import { describe, expect, it } from "vitest";
import { type FormLimits, FormPartsError, formParts } from "./form-parts.ts";

const encoder = new TextEncoder();
const TYPE = "multipart/form-data; boundary=XyZ";
const LIMITS: FormLimits = {
  maxTotalSize: 1 << 20,
  maxFieldSize: 100,
  maxParts: 10,
  isFile: (info) => info.filename !== undefined,
};

/** `bytes` as a stream of chunks of `size` bytes; `pulled` counts the chunks handed out. */
function chunked(bytes: Uint8Array, size: number) {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const at = state.pulled++ * size;
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + size));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

async function read(body: Uint8Array, size: number, limits = LIMITS) {
  const parts: { name: string; filename?: string; type?: string; data: number[] }[] = [];
  for await (const part of formParts(chunked(body, size).stream, TYPE, limits).parts) {
    if (part.kind === "field") {
      parts.push({ name: part.name, data: [...encoder.encode(part.value)] });
      continue;
    }
    const data: number[] = [];
    for await (const chunk of part.stream(Number.POSITIVE_INFINITY)) data.push(...chunk);
    parts.push({ name: part.name, filename: part.filename, type: part.contentType, data });
  }
  return parts;
}

const file = Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 256);
// file bytes that look like the start of a delimiter must stay file bytes
file.set(encoder.encode("\r\n--XyY\r\n--Xy"), 1000);
const body = new Uint8Array([
  ...encoder.encode(
    'preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="field"\r\n\r\ncv\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a b.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
  ),
  ...file,
  ...encoder.encode("\r\n--XyZ--\r\n"),
]);

describe("multipart form parts", () => {
  it.each([1, 2, 3, 5, 7, 13, 16, 64, 65, 4096])(
    "reads every part whole in chunks of %i bytes",
    async (size) => {
      const parts = await read(body, size);
      expect(parts.map((p) => [p.name, p.filename, p.type])).toEqual([
        ["field", undefined, undefined],
        ["file", "a b.pdf", "application/pdf"],
      ]);
      expect(new TextDecoder().decode(Uint8Array.from(parts[0]!.data))).toBe("cv");
      expect(parts[1]!.data).toEqual([...file]);
    },
  );

  it("reads the request only as fast as the file's reader takes its bytes", async () => {
    const { stream, state } = chunked(body, 100);
    const parts = formParts(stream, TYPE, LIMITS).parts;
    await parts.next(); // the field
    const { value } = await parts.next();
    if (value?.kind !== "file") throw new Error("expected the file");
    const reader = value.stream(Number.POSITIVE_INFINITY).getReader();
    await reader.read();
    const pulled = state.pulled;
    expect(pulled).toBeLessThan(5); // of 33 chunks
    await reader.read();
    expect(state.pulled).toBe(pulled + 1);
    await parts.return(undefined);
  });

  it("reads a body whatever the two chunks it comes in (a closing `--` cut in two included)", async () => {
    const short = encoder.encode(
      '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--XyZ\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n-\r\n--XyZ--\r\n',
    );
    for (let cut = 1; cut < short.length; cut++) {
      const halves = [short.slice(0, cut), short.slice(cut)];
      const stream = new ReadableStream<Uint8Array>({
        pull: (c) => (halves.length ? c.enqueue(halves.shift()!) : c.close()),
      });
      const names: string[] = [];
      for await (const part of formParts(stream, TYPE, LIMITS).parts) {
        names.push(part.name);
        if (part.kind === "file") expect(await new Response(part.stream(9)).text()).toBe("-");
      }
      expect(names).toEqual(["a", "f"]);
    }
  });

  it("refuses a body cut off inside a part", async () => {
    await expect(read(body.slice(0, body.length - 40), 64)).rejects.toBeInstanceOf(FormPartsError);
  });

  it("refuses a body over its limit, a text part over its size, and a file over its max", async () => {
    const total = formParts(chunked(body, 256).stream, TYPE, { ...LIMITS, maxTotalSize: 2000 });
    const { value: field } = await total.parts.next();
    const { value: file } = await total.parts.next();
    expect([field?.kind, file?.kind]).toEqual(["field", "file"]);
    if (file?.kind !== "file") return;
    await expect(new Response(file.stream(1e6)).arrayBuffer()).rejects.toThrow("MaxTotalSize");
    expect(total.failure()).toEqual({ _tag: "ReachedLimit", limit: "MaxTotalSize" });
    await expect(read(body, 256, { ...LIMITS, maxFieldSize: 1 })).rejects.toThrow("MaxFieldSize");
    const parts = formParts(chunked(body, 256).stream, TYPE, LIMITS).parts;
    for await (const part of parts) {
      if (part.kind !== "file") continue;
      await expect(new Response(part.stream(1000)).arrayBuffer()).rejects.toThrow("MaxPartSize");
      expect([part.overMax, part.size > 1000]).toEqual([true, true]);
    }
  });

  it("refuses a content type without a boundary", async () => {
    const parts = formParts(chunked(body, 64).stream, "multipart/form-data", LIMITS);
    await expect(parts.parts.next()).rejects.toBeInstanceOf(FormPartsError);
    expect(parts.failure()).toEqual({ _tag: "InvalidBoundary" });
  });
});
