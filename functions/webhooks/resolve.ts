// How a webhook's host is resolved, at create (url-safety.ts) and where the socket connects
// (post.ts): by DNS queries on the event loop (c-ares, `Resolver`), not `dns.lookup`. getaddrinfo
// runs on libuv's thread pool, where DNS may hold two of the four threads, and every name the
// process resolves waits for those two: a new Postgres connection (3 s to connect), Turnstile's
// siteverify, the mailer, other accounts' receivers. A receiver's name whose DNS never answers
// (an account's own domain, its name server gone) held one ~10 s a lookup: 20 deliveries queued
// minutes of them, so another account's webhooks were not sent and 10 of 12 keyed requests
// answered 503 (tenth review, REVIEW-10A). A c-ares query times out on its own and holds no thread.
import { type LookupAddress, lookup, promises } from "node:dns";
import { isIP } from "node:net";

let resolver: promises.Resolver | undefined;
/** Lookups through getaddrinfo, one after another (resolveHost). */
let hostsTurn: Promise<unknown> = Promise.resolve();

/** `localhost` and its subdomains are loopback (as WHATWG and RFC 6761 read them), asked of no one. */
const LOCAL = /^(?:.+\.)?localhost\.?$/i;

/**
 * The addresses of `host`. A name the DNS does not know may still be in /etc/hosts or need the
 * search list (local tools): where private receivers are allowed, it is then looked up by
 * getaddrinfo, one at a time, so webhooks hold at most one of its threads; in production not.
 */
export async function resolveHost(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family }];
  if (LOCAL.test(host))
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  resolver ??= new promises.Resolver({ timeout: 2500, tries: 2 });
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const found: LookupAddress[] = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (found.length > 0) return found;
  const error = (v4.status === "rejected" ? v4.reason : (v6 as PromiseRejectedResult).reason) as
    | NodeJS.ErrnoException
    | undefined;
  const unknown = error?.code === "ENOTFOUND" || error?.code === "ENODATA";
  if (!allowPrivate || !unknown) throw error ?? new Error(`${host} does not resolve`);
  const turn = hostsTurn.then(
    () =>
      new Promise<LookupAddress[]>((resolve, reject) =>
        lookup(host, { all: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))),
      ),
  );
  hostsTurn = turn.catch(() => {});
  return turn;
}
