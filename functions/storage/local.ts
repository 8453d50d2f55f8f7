import { createWriteStream } from "node:fs";
import { type FileHandle, mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { FileStorage } from "../context.ts";

/** Uploads in FORMDOWN_DATA_DIR/uploads, with the content type in a sidecar file. */
export function localStorage(root: string): FileStorage {
  const base = resolve(root);
  const path = (key: string) => {
    const full = resolve(join(base, key));
    if (!full.startsWith(`${base}/`)) throw new Error("storage key escapes the uploads folder");
    return full;
  };
  return {
    where: `the folder ${base} on this instance's disk`,
    async put(key, data, contentType) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data);
      await writeFile(`${file}.type`, contentType);
    },
    async write(key, data, contentType) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.type`, contentType);
      try {
        await pipeline(
          Readable.fromWeb(data as NodeReadableStream<Uint8Array>),
          createWriteStream(file),
        );
      } catch (error) {
        await rm(file, { force: true });
        await rm(`${file}.type`, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        const file = path(key);
        if (!(await stat(file)).isFile()) return null;
        return { data: fileBytes(file), contentType: await readFile(`${file}.type`, "utf8") };
      } catch {
        return null;
      }
    },
    async remove(key) {
      const file = path(key);
      await rm(file, { force: true });
      await rm(`${file}.type`, { force: true });
    },
  };
}

/**
 * A file's bytes as the reader takes them: a download of a 100 MB upload read whole (and copied)
 * held 200 MB until its client had it, so ten slow anonymous downloads held 1.4 GB. Opened at the
 * first read (an answer to HEAD reads none), closed at the end, on an error or when the reader
 * leaves.
 */
function fileBytes(file: string): ReadableStream<Uint8Array> {
  let handle: FileHandle | null = null;
  const close = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        handle ??= await open(file);
        const chunk = new Uint8Array(64 * 1024);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
        await close();
        controller.close();
      } catch (error) {
        await close().catch(() => {});
        controller.error(error);
      }
    },
    cancel: close,
  });
}
