// Standard Webhooks signing (https://www.standardwebhooks.com/, SPEC §11), with Web Crypto only
// so the Deno drain signs the same way as the Node server.

const encoder = new TextEncoder();

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the scheme asks for 24 to 64). */
export function newSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function signingKey(secret: string): Promise<CryptoKey> {
  const raw = fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** `v1,` + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")). */
export async function signature(
  key: CryptoKey,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The headers of one delivery attempt; the id stays the same on every retry. */
export async function signedHeaders(
  key: CryptoKey,
  id: string,
  body: string,
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signature(key, id, timestamp, body),
  };
}
