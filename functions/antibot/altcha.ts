import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { AntiBot } from "../context.ts";
import type { Db } from "../db/db.ts";

/**
 * Self-hosted proof of work (ALTCHA v2). SHA-256 with `cost` rounds per counter step; the
 * browser searches counters 0..N, N random in [MIN, MAX]. Measured in Node: ~20–60 ms for this
 * range; a phone's WebCrypto is roughly 10–20× slower, so about a second.
 */
const ALGORITHM = "SHA-256";
const COST = 2;
const MIN = 5_000;
const MAX = 15_000;
const TTL_SECONDS = 600;

export interface AltchaToken {
  challenge: { parameters: Record<string, unknown>; signature?: string };
  solution: { counter: number; derivedKey: string };
}

/** The token the page sends as `turnstile_token`: base64 of `{challenge, solution}`. */
export function encodeAltchaToken(token: AltchaToken): string {
  return btoa(JSON.stringify(token));
}

function decode(token: string): AltchaToken | null {
  try {
    const value = JSON.parse(atob(token)) as AltchaToken;
    if (!value?.challenge?.parameters || typeof value.challenge.signature !== "string") return null;
    if (
      typeof value.solution?.counter !== "number" ||
      typeof value.solution.derivedKey !== "string"
    )
      return null;
    return value;
  } catch {
    return null;
  }
}

export function createAltcha(db: Db, secret: string): AntiBot {
  const keySecret = `${secret}:key`;
  return {
    kind: "altcha",
    async challenge() {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(MIN, MAX),
        deriveKey,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
        expiresAt: Math.floor(Date.now() / 1000) + TTL_SECONDS,
      });
    },
    async verify(token) {
      const decoded = decode(token);
      if (!decoded) return false;
      const result = await verifySolution({
        challenge: decoded.challenge as unknown as Parameters<
          typeof verifySolution
        >[0]["challenge"],
        solution: decoded.solution,
        deriveKey,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      }).catch(() => null);
      if (!result?.verified) return false;
      // verifySolution is stateless: refuse a solution that was already redeemed
      const expires =
        Number(decoded.challenge.parameters.expiresAt ?? 0) * 1000 ||
        Date.now() + TTL_SECONDS * 1000;
      const fresh = await db.query(
        `with gc as (delete from used_challenges where expires_at < now())
         insert into used_challenges (signature, expires_at) values ($1, $2)
         on conflict (signature) do nothing returning signature`,
        [decoded.challenge.signature, new Date(expires).toISOString()],
      );
      return fresh.length === 1;
    },
  };
}
