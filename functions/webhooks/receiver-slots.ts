// How the in-process sender (sender.ts) shares its slots among receivers, so one hanging receiver
// cannot hold them all (test/webhooks/fairness.test.ts).

/**
 * Attempts one receiver may have in flight: all but a quarter of the slots, so a hanging receiver
 * holds at most those until its timeouts while the rest stay free for the others (a fast one
 * under load needs many: ~2,500 deliveries/s at 30 ms each is 75 in flight).
 */
export const perReceiver = (concurrency: number) =>
  Math.max(1, concurrency - Math.ceil(concurrency / 4));

/** Handed-over deliveries one receiver may have waiting for a slot: a quarter of the slots. */
export const perReceiverLine = (concurrency: number) => Math.max(1, Math.ceil(concurrency / 4));

/** Adds `by` to a per-webhook tally, dropping the entry at zero. */
export function count(m: Map<string, number>, id: string, by: number): void {
  const n = (m.get(id) ?? 0) + by;
  if (n === 0) m.delete(id);
  else m.set(id, n);
}
