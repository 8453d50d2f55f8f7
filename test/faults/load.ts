// Submit load for the fault suites: a fixed number of workers, each posting one submit after
// another (a closed loop, like a pool of respondents), recording every answer. Only a 201 is
// acknowledged; a network error (the server was killed) or any other status is not.

export interface Outcome {
  status: number;
  /** Milliseconds from sending to the full answer. */
  ms: number;
  /** performance.now() when the answer was complete. */
  at: number;
  /** The response id of a 201. */
  id?: string;
  code?: string;
  retryAfter?: string | null;
}

export interface LoadOptions {
  concurrency: number;
  /** Stop starting new submits once this says so. */
  stop: () => boolean;
  /** The answer sent (the worker's counter in it), for forms with one text field `note`. */
  fields?: (n: number) => Record<string, unknown>;
  /** Pause between two submits of one worker, in ms. */
  pauseMs?: number;
}

export const FAULT_FORM = {
  title: "Faults",
  slug: "faults",
  humanness: false,
  fields: [{ id: "note", type: "text", label: "Note" }],
};

export async function submitLoad(
  base: string,
  slug: string,
  options: LoadOptions,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let n = 0;
  const fields = options.fields ?? ((i: number) => ({ note: `answer ${i}` }));
  async function worker() {
    while (!options.stop()) {
      const i = n++;
      const started = performance.now();
      try {
        const res = await fetch(`${base}/api/forms/${slug}/submit`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fields: fields(i) }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const body = (() => {
          try {
            return JSON.parse(text) as { response_id?: string; code?: string };
          } catch {
            return {};
          }
        })();
        outcomes.push({
          status: res.status,
          ms: performance.now() - started,
          at: performance.now(),
          ...(res.status === 201 && body.response_id ? { id: body.response_id } : {}),
          ...(body.code ? { code: body.code } : {}),
          retryAfter: res.headers.get("retry-after"),
        });
      } catch {
        outcomes.push({ status: 0, ms: performance.now() - started, at: performance.now() });
        // the server is gone: do not spin
        await new Promise((r) => setTimeout(r, 20));
      }
      if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return outcomes;
}

/** Counts by status, the slowest answer, and the acknowledged ids. */
export function summarise(outcomes: Outcome[]) {
  const byStatus: Record<string, number> = {};
  for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
  const acknowledged = outcomes.flatMap((o) => (o.id ? [o.id] : []));
  const maxMs = Math.round(Math.max(0, ...outcomes.filter((o) => o.status !== 0).map((o) => o.ms)));
  return { byStatus, acknowledged, maxMs, total: outcomes.length };
}
