import { createWriteStream } from "node:fs";
import { mkdir, open, readFile, rm, writeFile } from "node:fs/promises";
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
        const contentType = await readFile(`${file}.type`, "utf8");
        // read as the client takes it: a file read whole per request held 100 MB for each of
        // twenty anonymous downloads of one upload that were not read (2 GB)
        const handle = await open(file);
        const data = Readable.toWeb(handle.createReadStream());
        return { data: data as ReadableStream<Uint8Array>, contentType };
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
