// Solves the self-hosted ALTCHA challenge in ~1 KB instead of the 35 KB widget. The search is
// split across two Web Workers (counters i, i+2, …), so it neither competes with typing nor
// takes longer than it must; where workers cannot start, it runs on the page.
import { type Challenge, type Solution, searchCounters } from "./pow.ts";

const WORKERS = 2;

function inWorkers(challenge: Challenge): Promise<Solution | null> {
  const workers = Array.from(
    { length: WORKERS },
    () => new Worker(new URL("./solver-worker.ts", import.meta.url), { type: "module" }),
  );
  return new Promise((resolve, reject) => {
    let pending = workers.length;
    const finish = (value: Solution | null) => {
      for (const w of workers) w.terminate();
      resolve(value);
    };
    workers.forEach((worker, i) => {
      worker.onmessage = (e: MessageEvent<Solution | null>) => {
        if (e.data) finish(e.data);
        else if (--pending === 0) finish(null);
      };
      worker.onerror = () => {
        for (const w of workers) w.terminate();
        reject(new Error("worker failed"));
      };
      worker.postMessage({ challenge, start: i, step: WORKERS });
    });
  });
}

/** The `turnstile_token` for a challenge: base64 of `{challenge, solution}`. */
export async function solve(challenge: Challenge): Promise<string> {
  let solution: Solution | null;
  try {
    solution = await inWorkers(challenge);
  } catch {
    solution = await searchCounters(challenge);
  }
  if (!solution) throw new Error("no solution");
  return btoa(JSON.stringify({ challenge, solution }));
}
