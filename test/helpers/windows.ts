/**
 * The rate limits count in whole-minute windows (functions/limiter/rate-limiter.ts): a test whose
 * counts must not straddle two starts early in one. What follows each call takes about a second
 * here, a few on a machine with both cores busy: ten seconds of window left is room enough, and
 * the wait before it averages under a second per test.
 */
export async function freshWindow(needMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}
