// Solves the self-hosted ALTCHA v2 challenge (algorithm SHA-256) with Web Crypto: the key for a
// counter is SHA-256 applied `cost` times to salt ‖ nonce ‖ counter (uint32, big-endian); the
// answer is the first counter whose key starts with the challenge's prefix. ~1 KB instead of the
// 35 KB widget.
interface Challenge {
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

const fromHex = (hex: string) =>
  Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const toHex = (bytes: Uint8Array) =>
  [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function solve(challenge: Challenge, signal?: AbortSignal): Promise<string> {
  const { salt, nonce, keyPrefix, cost, keyLength = 32 } = challenge.parameters;
  if (challenge.parameters.algorithm !== "SHA-256") throw new Error("unsupported challenge");
  const s = fromHex(salt);
  const n = fromHex(nonce);
  const prefix = fromHex(keyPrefix);
  const input = new Uint8Array(s.length + n.length + 4);
  input.set(s);
  input.set(n, s.length);
  const view = new DataView(input.buffer);
  for (let counter = 0; counter < 0xffffffff; counter++) {
    if (signal?.aborted) throw new Error("aborted");
    view.setUint32(s.length + n.length, counter, false);
    let key: Uint8Array = input;
    for (let i = 0; i < Math.max(1, cost); i++)
      key = new Uint8Array(await crypto.subtle.digest("SHA-256", key as Uint8Array<ArrayBuffer>));
    key = key.slice(0, keyLength);
    if (prefix.every((b, i) => key[i] === b)) {
      return btoa(JSON.stringify({ challenge, solution: { counter, derivedKey: toHex(key) } }));
    }
  }
  throw new Error("no solution");
}
