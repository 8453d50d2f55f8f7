import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The address the CLI reaches this server at: the listening one, with `localhost` for a wildcard
 * host (0.0.0.0, ::), which is no address to connect to.
 */
export function reachableUrl(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "localhost";
  return url.origin;
}

/**
 * `npm start` writes the URL it listens on beside its key (`<data dir>/url`), so the CLI run in
 * the same checkout finds the server on whatever PORT it was given (cli/lib/config.ts).
 */
export async function writeUrlFile(dataDir: string, listening: string): Promise<string> {
  const url = reachableUrl(listening);
  await writeFile(join(dataDir, "url"), `${url}\n`);
  return url;
}

/** On a clean stop: removed, unless another server has written its own since. */
export async function removeUrlFile(dataDir: string, url: string): Promise<void> {
  const file = join(dataDir, "url");
  const now = await readFile(file, "utf8").catch(() => "");
  if (now.trim() === url) await rm(file, { force: true });
}
