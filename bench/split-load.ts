// The respondents of bench/split-deploy.ts: each submit goes to one of the two entries (a load
// balancer's round robin). A refused connection (the instance is down) goes to the other one; a
// 503 `unavailable` (an instance stopping) is tried again after its Retry-After, as browsers and
// load balancers do, under the same Idempotency-Key. A connection cut after the request was
// sent, with no answer, is counted: SPEC §17 says there must be none.
import type { Instance } from "./split-parts.ts";

export interface LoadCounts {
  acknowledged: Set<string>;
  /** Requests that got no answer on a connection that had accepted them. */
  cut: number;
  /** 503 `unavailable` answers from a stopping instance (each retried). */
  stopping503: number;
  /** Any other 5xx (none expected). */
  other5xx: number;
  /** Submits that ended without a 201. */
  lost: number;
  refused: number;
  byEntry: Record<string, number>;
  /** The cuts by entry and error, to tell which side closed. */
  cuts: Record<string, number>;
}

const refused = (e: unknown) => {
  const cause = (e as { cause?: { code?: string } }).cause;
  return cause?.code === "ECONNREFUSED";
};

export async function runLoad(
  entries: Instance[],
  slug: string,
  total: number,
  concurrency: number,
  onProgress: (done: number) => void,
): Promise<LoadCounts> {
  const counts: LoadCounts = {
    acknowledged: new Set(),
    cut: 0,
    stopping503: 0,
    other5xx: 0,
    lost: 0,
    refused: 0,
    byEntry: {},
    cuts: {},
  };
  let next = 0;
  let done = 0;
  async function one(i: number) {
    // round robin over the entries in rotation; one that refused a connection or said it is
    // stopping is out until it is started again (a load balancer's health check)
    const live = entries.map((_, k) => k).filter((k) => entries[k]!.up);
    let entry = live.length > 0 ? live[i % live.length]! : i % entries.length;
    for (let attempt = 0; attempt < 200; attempt++) {
      const target = entries[entry]!;
      try {
        const res = await fetch(`${target.base}/api/forms/${slug}/submit`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "idempotency-key": `split-${i}`,
            // one proxy in front (FORMDOWN_TRUSTED_PROXIES=1): a client address per respondent
            "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          },
          body: JSON.stringify({ fields: { note: `answer ${i}` } }),
          signal: AbortSignal.timeout(60_000),
        });
        const body = (await res.json().catch(() => ({}))) as {
          response_id?: string;
          code?: string;
        };
        if (res.status === 201 && body.response_id) {
          counts.acknowledged.add(body.response_id);
          counts.byEntry[target.name] = (counts.byEntry[target.name] ?? 0) + 1;
          return;
        }
        if (res.status === 503 && body.code === "unavailable") {
          counts.stopping503++;
          target.up = false;
          const wait = Math.min(1000, Number(res.headers.get("retry-after") ?? 1) * 1000);
          await new Promise((r) => setTimeout(r, wait));
          entry = (entry + 1) % entries.length;
          continue;
        }
        if (res.status >= 500) counts.other5xx++;
        counts.lost++;
        return;
      } catch (e) {
        if (refused(e)) {
          counts.refused++;
          target.up = false;
        } else {
          counts.cut++;
          const cause = (e as { cause?: { code?: string; message?: string } }).cause;
          const what = `${target.name}: ${cause?.code ?? cause?.message ?? (e as Error).message}`;
          counts.cuts[what] = (counts.cuts[what] ?? 0) + 1;
        }
        entry = (entry + 1) % entries.length;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    counts.lost++;
  }
  async function worker() {
    while (next < total) {
      const i = next++;
      await one(i);
      done++;
      onProgress(done);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return counts;
}
