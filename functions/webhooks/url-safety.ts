// Which receivers a webhook may reach (SPEC §11). In production, an address on the loopback,
// a private or link-local network, or a cloud metadata service is refused, when the webhook is
// created and again when each delivery connects (DNS can change between the two).
import { isIP } from "node:net";
import { resolveHost } from "./resolve.ts";

/** IPv4 ranges no webhook may reach in production: [first octets, prefix length]. */
const V4_BLOCKED: [number[], number][] = [
  [[0], 8], // "this" network
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, cloud metadata (169.254.169.254)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function blockedV4(ip: string): boolean {
  const n = v4Number(ip);
  return V4_BLOCKED.some(([octets, bits]) => {
    const base = v4Number([...octets, 0, 0, 0, 0].slice(0, 4).join("."));
    const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits);
    return (n & mask) >>> 0 === (base & mask) >>> 0;
  });
}

/** The 8 groups of an IPv6 address as numbers (an embedded IPv4 tail becomes two groups). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4Number(v4[1]!);
    text = `${text.slice(0, -v4[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g || "0", 16));
}

/** The IPv4 address in two 16-bit groups, `a.b.c.d`. */
const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * IPv6 is judged by what it reaches: every spelling that carries an IPv4 address (compatible
 * `::a.b.c.d`, mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002:AABB:CCDD::`, Teredo's server and obfuscated client) is refused like that IPv4 address;
 * ranges that are never public (loopback, unspecified, unique-local, site-local, link-local,
 * multicast, local-use NAT64, discard, documentation) are refused outright.
 */
function blockedV6(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff)) return true;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::/96 (IPv4-compatible, with :: and ::1 as 0.0.0.0 and 0.0.0.1), ::ffff:0:0/96, ::ffff:0:0:0/96
  if (zero(0, 6)) return g[6] === 0 && g[7]! <= 1 ? true : blockedV4(v4Of(g[6]!, g[7]!));
  if (zero(0, 5) && g[5] === 0xffff) return blockedV4(v4Of(g[6]!, g[7]!));
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return blockedV4(v4Of(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b) return zero(2, 6) ? blockedV4(v4Of(g[6]!, g[7]!)) : true; // NAT64; 64:ff9b:1::/48 is local
  if (g[0] === 0x2002) return blockedV4(v4Of(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) {
    // Teredo: the server's address in clear, the client's inverted
    return blockedV4(v4Of(g[2]!, g[3]!)) || blockedV4(v4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff));
  }
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x100 && zero(1, 4)) return true; // discard-only 100::/64
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // unique local (AWS metadata fd00:ec2::254 too)
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return true; // site-local (deprecated, still routed inside)
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** True for an address a production webhook must not reach. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blockedV4(ip);
  if (family === 6) return blockedV6(ip);
  return true;
}

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data"]);

/** Why a URL cannot be a webhook's target, or null. Resolves the host when private ones are refused. */
export async function urlProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "url must be an absolute http or https URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url must use http or https.";
  if (url.username || url.password) return "url must not carry a user name or password.";
  if (text.length > 2000) return "url must be at most 2000 characters.";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_NAMES.has(host.replace(/\.$/, "")))
    return "url points at a cloud metadata service, which webhooks may not reach.";
  const addresses = isIP(host)
    ? [host]
    : await resolveHost(host, false).then(
        (found) => found.map((a) => a.address),
        () => null,
      );
  if (!addresses || addresses.length === 0) return `the host ${host} does not resolve.`;
  if (addresses.some(isPrivateAddress))
    return `the host ${host} is a loopback, private, link-local or metadata address, which webhooks may not reach.`;
  return null;
}
