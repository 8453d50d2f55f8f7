/**
 * A response's id: a UUIDv7 (RFC 9562) — the millisecond in its first 48 bits, then a counter
 * that goes on within one millisecond, then random bits — so the ids this process makes sort in
 * the order it made them. Lists order responses by (submitted_at, id), and PGlite's clock counts
 * milliseconds: two submits in one share their instant, and the id then orders them by arrival
 * rather than by chance.
 */
let lastMs = 0;
let counter = 0;

export function responseId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // 4,096 in one millisecond: borrow the next one, as the RFC allows
    lastMs++;
    counter = 0;
  }
  const time = lastMs.toString(16).padStart(12, "0");
  const random = crypto.getRandomValues(new Uint8Array(8));
  random[0] = (random[0]! & 0x3f) | 0x80; // the variant
  const tail = Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
  const version = (0x7000 | counter).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-${version}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
