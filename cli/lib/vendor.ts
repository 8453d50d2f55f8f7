import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { CliError } from "./api.ts";

/** Where a forms-only repository keeps its copy of the CLI (like a build tool's wrapper). */
export const VENDORED = ".formdown/formdown.mjs";
const HEADER = /^#!\/usr\/bin\/env node\n\/\/ formdown (\S+):/;

/** The version a bundle names in its second line, or null if the text is not a bundle. */
const bundleVersion = (text: string): string | null => HEADER.exec(text)?.[1] ?? null;

/** The CLI bundle the server at `url` serves (`GET /cli/formdown.mjs`), checked to be one. */
export async function fetchBundle(url: string): Promise<{ text: string; version: string }> {
  let res: Response;
  try {
    res = await fetch(`${url}/cli/formdown.mjs`);
  } catch {
    throw new CliError(
      `cannot reach ${url}: pass the server's --url (or set FORMDOWN_URL)`,
      "unreachable",
    );
  }
  const text = res.ok ? await res.text() : "";
  const version = bundleVersion(text);
  if (!version)
    throw new CliError(
      `${url} did not answer the formdown CLI at /cli/formdown.mjs (HTTP ${res.status}): is it a Formdown server?`,
      "unreachable",
    );
  return { text, version };
}

/** The running script when it is a bundle (the vendored file or the npm package), else null. */
export function runningBundle(): string | null {
  const script = process.argv[1] ? resolve(process.argv[1]) : "";
  return script.endsWith(".mjs") && !script.includes("/node_modules/") ? script : null;
}

/** Writes the bundle next to itself and renames it into place, so a running copy is never half-written. */
export async function writeBundle(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await chmod(tmp, 0o755);
  await rename(tmp, path);
}

/** The version of the bundle at `path`, or null when there is none. */
export async function installedVersion(path: string): Promise<string | null> {
  if (!existsSync(path)) return null;
  return bundleVersion((await readFile(path, "utf8")).slice(0, 200));
}
