import { raise } from "../../src/core/errors.ts";
import type { QuizScore } from "../../src/core/score.ts";
import type { AppContext } from "../context.ts";
import { sha256Hex } from "../crypto.ts";

/** JSON with object keys sorted at every level, so equal requests hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What an Idempotency-Key is bound to (SPEC §19, as Stripe does): the answers and hidden values.
 * Not the anti-bot token, `seconds` or `access`, which a retry may send anew.
 */
export function requestHash(body: Record<string, unknown>): Promise<string> {
  return sha256Hex(canonical({ fields: body.fields ?? null, hidden: body.hidden ?? null }));
}

export interface FirstResponse {
  id: string;
  score: QuizScore | null;
  payload: Record<string, unknown>;
}

/**
 * The response first stored under `key`, or null. The same key with another request answers 422
 * `idempotency_mismatch`, never the other request's result (rows stored before keys were bound
 * have no hash and are answered as before).
 */
export async function firstResponse(
  ctx: AppContext,
  formId: string,
  key: string,
  hash: string,
): Promise<FirstResponse | null> {
  const [hit] = await ctx.db.query<FirstResponse & { idempotency_hash: string | null }>(
    "select id, score, payload, idempotency_hash from responses where form_id = $1 and idempotency_key = $2",
    [formId, key],
  );
  if (!hit) return null;
  if (hit.idempotency_hash !== null && hit.idempotency_hash !== hash)
    raise(
      "idempotency_mismatch",
      "This Idempotency-Key was already used with different answers; send a new key for a new response.",
    );
  return hit;
}
