// The ALTCHA v2 proof of work (algorithm SHA-256) with Web Crypto, as altcha-lib derives it: the
// key for a counter is SHA-256 applied `cost` times to salt ‖ nonce ‖ counter (uint32,
// big-endian); the answer is the counter whose key starts with the challenge's prefix.
export interface Challenge {
  parameters: {
    algorithm: string;
    salt: string;
    nonce: string;
    keyPrefix: string;
    cost: number;
    keyLength?: number;
  };
  signature?: string;
}
export interface Solution {
  counter: number;
  derivedKey: string;
}

const fromHex = (hex: string) =>
  Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const toHex = (bytes: Uint8Array) =>
  [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Tries counters start, start + step, … until one's key has the prefix. */
export async function searchCounters(
  challenge: Challenge,
  start = 0,
  step = 1,
): Promise<Solution | null> {
  const { salt, nonce, keyPrefix, cost, keyLength = 32 } = challenge.parameters;
  if (challenge.parameters.algorithm !== "SHA-256") return null;
  const s = fromHex(salt);
  const n = fromHex(nonce);
  const prefix = fromHex(keyPrefix);
  const input = new Uint8Array(s.length + n.length + 4);
  input.set(s);
  input.set(n, s.length);
  const view = new DataView(input.buffer);
  for (let counter = start; counter <= 0xffffffff; counter += step) {
    view.setUint32(s.length + n.length, counter, false);
    let key: Uint8Array = input;
    for (let i = 0; i < Math.max(1, cost); i++)
      key = new Uint8Array(await crypto.subtle.digest("SHA-256", key as Uint8Array<ArrayBuffer>));
    key = key.slice(0, keyLength);
    if (prefix.every((b, i) => key[i] === b)) return { counter, derivedKey: toHex(key) };
  }
  return null;
}
