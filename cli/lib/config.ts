import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Settings {
  url: string;
  key: string | undefined;
  /** Where the key came from, for `doctor` and error messages. */
  keySource: string;
}

export type Flags = { url?: string; key?: string };
type Env = Record<string, string | undefined>;

export const configPath = (env: Env = process.env) =>
  join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "formdown", "config.json");

function readConfigFile(env: Env): { url?: string; key?: string } {
  const path = configPath(env);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8")) as { url?: string; key?: string };
  } catch {
    return {};
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
 * Flags, then environment, then the config file `formdown login` writes, then defaults. Talking
 * to a local server, the embedded server's own key file is found automatically.
 */
export function resolveSettings(
  flags: Flags,
  env: Env = process.env,
  cwd = process.cwd(),
): Settings {
  const file = readConfigFile(env);
  const url = withScheme(flags.url || env.FORMDOWN_URL || file.url || "http://localhost:4321");
  if (flags.key) return { url, key: flags.key, keySource: "--key" };
  if (env.FORMDOWN_API_KEY)
    return { url, key: env.FORMDOWN_API_KEY, keySource: "FORMDOWN_API_KEY" };
  if (file.key && (!file.url || file.url.replace(/\/+$/, "") === url))
    return { url, key: file.key, keySource: configPath(env) };
  if (isLocal(url)) {
    const keyFile = join(cwd, env.FORMDOWN_DATA_DIR || ".formdown", "api-key");
    if (existsSync(keyFile))
      return { url, key: readFileSync(keyFile, "utf8").trim(), keySource: keyFile };
  }
  return { url, key: undefined, keySource: "none" };
}
