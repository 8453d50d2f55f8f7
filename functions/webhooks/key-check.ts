// SPEC §22: a restored database with another FORMDOWN_WEBHOOK_KEY fails every delivery, since
// the signing secrets were sealed with the first key. Its fingerprint is kept in the database,
// so an instance with another key says so at start and `formdown doctor` fails, naming it.
import type { AppContext } from "../context.ts";

const NAME = "webhook_key_fingerprint";

async function fingerprint(key: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`formdown webhook key fingerprint\n${key}`),
  );
  return [...new Uint8Array(digest).slice(0, 8)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Null when this instance's key is the one the database knows (kept on first use), else why not. */
export async function webhookKeyProblem(ctx: AppContext): Promise<string | null> {
  const key = ctx.config.webhooks.key;
  const [kept] = await ctx.db.query<{ value: string }>(
    "select value from server_secrets where name = $1",
    [NAME],
  );
  if (!key)
    return kept
      ? `FORMDOWN_WEBHOOK_KEY is not set, but this database's webhook secrets were sealed with a key of fingerprint ${kept.value}: every delivery will fail until it is set`
      : null;
  const mine = await fingerprint(key);
  if (!kept) {
    await ctx.db.query(
      "insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing",
      [NAME, mine],
    );
    return null;
  }
  return kept.value === mine
    ? null
    : `FORMDOWN_WEBHOOK_KEY (fingerprint ${mine}) is not the key this database's webhook secrets were sealed with (fingerprint ${kept.value}): every delivery will fail until the right key is set`;
}
