// The respondents of bench/split-deploy.ts behind a load balancer as one runs in front of real
// instances: it probes each entry's `GET /api/health` every PROBE_MS (docs/operations.md), takes
// an entry out at its first failed probe (a 503, a refused or timed-out one) and puts it back at
// its first 200; between probes, an entry that refuses a connection or answers a submit 503
// `unavailable` is taken out at once (a passive check). Submits go round robin over the entries in
// rotation. A refused connection (nothing was sent) goes to another entry; a 503 `unavailable` is
// tried again after its Retry-After, as browsers and load balancers do, under the same
// Idempotency-Key. A connection cut after the request was sent, before any byte of an answer, is
// counted (SPEC §17 says there must be none) and then sent again under the same Idempotency-Key:
// safe, since the server stores one response per key and answers a retry with the first one
// (SPEC §19), and the duplicates counts check it. A cut after the answer began is counted and
// not retried (a balancer cannot take back what it began to pass on).
import type { Instance } from "./split-parts.ts";

/**
 * The health probe's interval (docs/operations.md, "Stopping and restarting": about a second);
 * BENCH_PROBE_MS sets another, to see what a slower balancer meets.
 */
export const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 1000);
const PROBE_TIMEOUT_MS = 2000;

export interface LoadCounts {
  acknowledged: Set<string>;
  /** Requests that got no answer on a connection that had accepted them. */
  cut: number;
  /** Of those, cut before any byte of an answer and sent again under the same key. */
  cutRetried: number;
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
  /** What the balancer's probes saw: entries taken out and put back. */
  probes: { out: Record<string, number>; back: Record<string, number> };
}

const refused = (e: unknown) => {
  const cause = (e as { cause?: { code?: string } }).cause;
  return cause?.code === "ECONNREFUSED";
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The balancer's view of the entries: in rotation or out, from its probes and passive checks. */
function balancer(entries: Instance[], counts: LoadCounts) {
  // an entry is in rotation once a probe answers 200 (null: not probed yet)
  const inRotation: (boolean | null)[] = entries.map(() => null);
  const set = (k: number, up: boolean) => {
    const was = inRotation[k];
    inRotation[k] = up;
    if (was === up || was === null) return;
    const side = up ? counts.probes.back : counts.probes.out;
    side[entries[k]!.name] = (side[entries[k]!.name] ?? 0) + 1;
  };
  const probe = async (k: number) => {
    try {
      const res = await fetch(`${entries[k]!.base}/api/health`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => {});
      set(k, res.status === 200);
    } catch {
      set(k, false);
    }
  };
  let stopped = false;
  const ready = Promise.all(entries.map((_, k) => probe(k)));
  const loops = entries.map(async (_, k) => {
    await ready;
    // a probe every PROBE_MS from the start of the one before, as a balancer's interval runs
    let due = performance.now();
    while (!stopped) {
      due = Math.max(due + PROBE_MS, performance.now());
      await pause(due - performance.now());
      if (!stopped) await probe(k);
    }
  });
  let turn = 0;
  return {
    ready,
    /** The next entry in rotation, waiting (as a balancer with none healthy holds) for one. */
    async pick(): Promise<number> {
      for (let waited = 0; waited < 120_000; waited += 100) {
        const live = entries.map((_, k) => k).filter((k) => inRotation[k]);
        if (live.length > 0) return live[turn++ % live.length]!;
        await pause(100);
      }
      throw new Error("no entry in rotation for two minutes");
    },
    out: (k: number) => set(k, false),
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

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
    cutRetried: 0,
    stopping503: 0,
    other5xx: 0,
    lost: 0,
    refused: 0,
    byEntry: {},
    cuts: {},
    probes: { out: {}, back: {} },
  };
  const lb = balancer(entries, counts);
  await lb.ready;
  let next = 0;
  let done = 0;
  const cutAt = (target: Instance, e: unknown) => {
    counts.cut++;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const what = `${target.name}: ${cause?.code ?? cause?.message ?? (e as Error).message}`;
    counts.cuts[what] = (counts.cuts[what] ?? 0) + 1;
  };
  async function one(i: number) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const entry = await lb.pick();
      const target = entries[entry]!;
      let res: Response;
      try {
        res = await fetch(`${target.base}/api/forms/${slug}/submit`, {
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
      } catch (e) {
        // no byte of an answer came (fetch resolves at the status line and headers)
        if (refused(e)) {
          counts.refused++;
          lb.out(entry);
        } else {
          cutAt(target, e);
          counts.cutRetried++;
        }
        await pause(50);
        continue;
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        // the answer began and was cut: counted, not sent again
        cutAt(target, e);
        counts.lost++;
        return;
      }
      let body: { response_id?: string; code?: string } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {}
      if (res.status === 201 && body.response_id) {
        counts.acknowledged.add(body.response_id);
        counts.byEntry[target.name] = (counts.byEntry[target.name] ?? 0) + 1;
        return;
      }
      if (res.status === 503 && body.code === "unavailable") {
        counts.stopping503++;
        lb.out(entry);
        await pause(Math.min(1000, Number(res.headers.get("retry-after") ?? 1) * 1000));
        continue;
      }
      if (res.status >= 500) counts.other5xx++;
      counts.lost++;
      return;
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
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await lb.stop();
  }
  return counts;
}
