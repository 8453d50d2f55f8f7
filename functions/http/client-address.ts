// Who the client is, for the rate limiter's buckets (SPEC §17). `FORMDOWN_TRUSTED_PROXIES`:
// `0` (default) — the socket's peer is the client and X-Forwarded-For is ignored; `N` — N proxies
// in front each append the address they saw, so the N-th entry from the right is the client;
// a list of CIDRs — addresses in them are proxies, stripped from the right of the chain
// (X-Forwarded-For, then the peer). Only the right of the header is ever read: whatever a client
// writes on its left cannot change its bucket. Runtime-free: Node and Deno pass the peer in.

export type TrustedProxies =
  | { kind: "count"; n: number }
  | { kind: "cidrs"; ranges: { bits: bigint; prefix: number; v6: boolean }[] };

/** An IPv4 or IPv6 address as a number (IPv4-mapped IPv6 as IPv4), or null. */
function parseIp(text: string): { bits: bigint; v6: boolean } | null {
  const s = text.replace(/^::ffff:(?=\d+\.)/i, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return { bits: parts.reduce((a, p) => (a << 8n) | BigInt(p), 0n), v6: false };
  }
  if (!/^[0-9a-f:]+$/i.test(s) || s.split("::").length > 2) return null;
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const groups = (g: string | undefined) => (g ? g.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  if (all.some((g) => g.length === 0 || g.length > 4)) return null;
  return { bits: all.reduce((a, g) => (a << 16n) | BigInt(`0x${g}`), 0n), v6: true };
}

/** The address a bucket is keyed by: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as plain IPv4. */
export const canonicalIp = (ip: string) => ip.trim().replace(/^::ffff:(?=\d+\.)/i, "");

/**
 * The rate limiter's name for a client (SPEC §23 "Buckets by network"): an IPv4 address as it
 * is, an IPv6 address by its /64 — one subscriber's network, in which a client may pick any of
 * 2^64 addresses — and "-" when there is none. Text that is no address is kept as it came.
 */
export function clientBucket(ip: string | undefined): string {
  if (ip === undefined || ip.trim() === "") return "-";
  const a = parseIp(ip.trim());
  if (!a?.v6) return canonicalIp(ip);
  const groups = Array.from({ length: 4 }, (_, i) =>
    ((a.bits >> BigInt(112 - 16 * i)) & 0xffffn).toString(16),
  );
  return `${groups.join(":")}::/64`;
}

/** Parses the setting; throws one line naming the variable when it is malformed. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const t = (text ?? "").trim();
  if (t === "") return { kind: "count", n: 0 };
  if (/^\d+$/.test(t)) return { kind: "count", n: Number(t) };
  const ranges = t.split(",").map((item) => {
    const [addr, len, extra] = item.trim().split("/");
    const ip = parseIp(addr ?? "");
    const max = ip?.v6 ? 128 : 32;
    const prefix = len === undefined ? max : Number(len);
    if (!ip || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
      throw new Error(
        `FORMDOWN_TRUSTED_PROXIES: "${item.trim()}" is neither a number of proxies nor a CIDR (e.g. 10.0.0.0/8).`,
      );
    return { bits: ip.bits >> BigInt(max - prefix), prefix, v6: ip.v6 };
  });
  return { kind: "cidrs", ranges };
}

function trusted(ip: string, trust: TrustedProxies & { kind: "cidrs" }): boolean {
  const a = parseIp(ip);
  if (!a) return false;
  const max = a.v6 ? 128 : 32;
  return trust.ranges.some((r) => r.v6 === a.v6 && a.bits >> BigInt(max - r.prefix) === r.bits);
}

/** The client's address from the socket's peer and X-Forwarded-For, as the setting says. */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustedProxies,
): string | undefined {
  const own = peer ? canonicalIp(peer) : undefined;
  if (trust.kind === "count" && trust.n === 0) return own;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map(canonicalIp)
    .filter((h) => h !== "");
  if (trust.kind === "count") {
    // fewer entries than proxies: the request came round a proxy; its leftmost hop is all we have
    if (hops.length === 0) return own;
    return hops[Math.max(0, hops.length - trust.n)];
  }
  const chain = own ? [...hops, own] : hops;
  for (let i = chain.length - 1; i >= 0; i--) if (!trusted(chain[i]!, trust)) return chain[i];
  return chain[0];
}
