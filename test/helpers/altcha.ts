import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { encodeAltchaToken } from "../../functions/antibot/altcha.ts";

/** Fetches a challenge and solves it as the page's solver does; returns the `turnstile_token`. */
export async function solveAltcha(base: string): Promise<string> {
  const challenge = await (await fetch(`${base}/api/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("could not solve the challenge");
  return encodeAltchaToken({
    challenge,
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  });
}
