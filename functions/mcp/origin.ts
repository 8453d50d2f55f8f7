import type { Config } from "../config.ts";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The MCP transport spec says servers MUST validate Origin (DNS rebinding): a page on
 * evil.example.com whose name resolves to this machine would otherwise drive a local server
 * with whatever key it can get a browser to send. A request without Origin is not a browser's
 * cross-origin call and passes; an Origin passes when it is the configured base or public
 * origin, or this same loopback address (a local page of this server). Judged by the configured
 * names, never by the Host header alone: the rebinding attack sends a matching foreign Host.
 */
export function originAllowed(
  config: Config,
  origin: string | undefined,
  host: string | undefined,
) {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === "null") return false;
  const configured = [config.baseUrl, config.publicBaseUrl].map((u) => new URL(u).origin);
  if (configured.includes(parsed.origin)) return true;
  return LOOPBACK.has(parsed.hostname) && parsed.host === host;
}
