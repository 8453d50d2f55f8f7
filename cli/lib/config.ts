import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CliError } from "./api.ts";

export interface Settings {
  url: string;
  key: string | undefined;
  /** Where the key came from, for `doctor` and error messages. */
  keySource: string;
}

export type Flags = { url?: string; key?: string };
type Env = Record<string, string | undefined>;

/** The per-user config `formdown login` writes (every checkout shares it). */
export const configPath = (env: Env = process.env) =>
  join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "formdown", "config.json");

/** The local server's data directory: its key file, and the URL it listens on, are in it. */
const dataDir = (env: Env, cwd: string) => join(cwd, env.FORMDOWN_DATA_DIR || ".formdown");

/**
 * The per-checkout config (`formdown login --here`): `.formdown/config.json`, ignored by git
 * like the rest of `.formdown/` but the vendored CLI (scaffold.ts' .gitignore).
 */
export const checkoutConfigPath = (cwd = process.cwd()) => join(cwd, ".formdown", "config.json");

type ConfigFile = { url?: string; key?: string };

function readConfigFile(path: string): ConfigFile {
  if (!existsSync(path)) return {};
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as unknown;
    if (!json || typeof json !== "object") return {};
    const { url, key } = json as Record<string, unknown>;
    return {
      ...(typeof url === "string" && url ? { url } : {}),
      ...(typeof key === "string" && key ? { key } : {}),
    };
  } catch {
    return {};
  }
}

/** One line of a file, or undefined (absent, unreadable or empty). */
function readLine(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

const isLocal = (url: string) =>
  /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(url);

/**
 * `localhost:4321` means http://localhost:4321: a local address without a scheme gets http, any
 * other host https. A trailing slash is dropped.
 */
export function withScheme(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(:\d+)?(\/|$)/i.test(trimmed);
  return `${local ? "http" : "https"}://${trimmed}`;
}

/**
 * Flags, then environment, then this checkout (its `.formdown/config.json`, else the URL the
 * local server wrote beside its key: `.formdown/url`), then the per-user config `formdown login`
 * writes, then defaults. A key is taken from a config only for the URL it was saved with; talking
 * to a local server, the embedded server's own key file is found automatically.
 */
export function resolveSettings(
  flags: Flags,
  env: Env = process.env,
  cwd = process.cwd(),
): Settings {
  const checkoutPath = checkoutConfigPath(cwd);
  const checkout = readConfigFile(checkoutPath);
  const userPath = configPath(env);
  const user = readConfigFile(userPath);
  const urlFile = join(dataDir(env, cwd), "url");
  const named = flags.url || env.FORMDOWN_URL;
  const fromCheckout = named ? undefined : checkout.url || readLine(urlFile);
  const url = withScheme(named || fromCheckout || user.url || "http://localhost:4321");
  if (flags.key) return { url, key: flags.key, keySource: "--key" };
  if (env.FORMDOWN_API_KEY) {
    // a checkout's files are the repository's, whoever wrote it: the key of the environment goes
    // only where the environment (or a flag) says, or to this machine
    if (fromCheckout && !isLocal(url))
      throw new CliError(
        `FORMDOWN_API_KEY is not sent to ${url}, which this checkout names (${checkout.url ? checkoutPath : urlFile}): set FORMDOWN_URL (or --url) to that server to use the key there.`,
        "usage",
        2,
      );
    return { url, key: env.FORMDOWN_API_KEY, keySource: "FORMDOWN_API_KEY" };
  }
  for (const [file, path] of [
    [checkout, checkoutPath],
    [user, userPath],
  ] as const) {
    if (file.key && (!file.url || withScheme(file.url) === url))
      return { url, key: file.key, keySource: path };
  }
  if (isLocal(url)) {
    const keyFile = join(dataDir(env, cwd), "api-key");
    const key = readLine(keyFile);
    if (key) return { url, key, keySource: keyFile };
  }
  return { url, key: undefined, keySource: "none" };
}
