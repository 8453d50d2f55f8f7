import type { AntiBot } from "../context.ts";

/** Cloudflare Turnstile: the token is checked with siteverify (single use, 300 s). */
export function createTurnstile(options: {
  siteKey?: string;
  secret: string;
  verifyUrl: string;
}): AntiBot {
  return {
    kind: "turnstile",
    ...(options.siteKey ? { siteKey: options.siteKey } : {}),
    async verify(token, ip) {
      if (!token || token.length > 2048) return false;
      const body = new URLSearchParams({ secret: options.secret, response: token });
      if (ip) body.set("remoteip", ip);
      body.set("idempotency_key", crypto.randomUUID());
      try {
        const res = await fetch(options.verifyUrl, {
          method: "POST",
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) return false;
        const json = (await res.json()) as { success?: boolean };
        return json.success === true;
      } catch {
        return false;
      }
    },
  };
}
