import { createWriteStream } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
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
        return {
          data: new Uint8Array(await readFile(file)),
          contentType: await readFile(`${file}.type`, "utf8"),
        };
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
