// One share of the ALTCHA search (see pow.ts), off the page's main thread.
import { type Challenge, searchCounters } from "./pow.ts";

self.onmessage = async (
  event: MessageEvent<{ challenge: Challenge; start: number; step: number }>,
) => {
  const { challenge, start, step } = event.data;
  self.postMessage(await searchCounters(challenge, start, step));
};
