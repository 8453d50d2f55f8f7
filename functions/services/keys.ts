import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { type Account, issueKey } from "./accounts.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createKey(ctx: AppContext, account: Account, name: unknown) {
  if (name !== undefined && (typeof name !== "string" || name.length > 100)) {
    raise("validation_failed", "The key name must be text of at most 100 characters.", {
      details: [{ field: "name", message: "must be text of at most 100 characters" }],
    });
  }
  const key = await issueKey(ctx, account.id, name as string | undefined);
  return {
    id: key.id,
    api_key: key.key,
    prefix: key.prefix,
    name: key.name,
    created_at: key.created_at,
  };
}

export async function listKeys(ctx: AppContext, account: Account) {
  return ctx.db.query(
    `select id, prefix, name, created_at, last_used_at, revoked_at from api_keys
      where account_id = $1 order by created_at desc`,
    [account.id],
  );
}

export async function revokeKey(ctx: AppContext, account: Account, id: string) {
  if (!UUID.test(id)) raise("not_found", "No such key.");
  const [row] = await ctx.db.query<{ account_id: string }>(
    "select account_id from api_keys where id = $1",
    [id],
  );
  if (!row) raise("not_found", "No such key.");
  if (row!.account_id !== account.id) raise("forbidden", "That key belongs to another account.");
  await ctx.db.query("update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1", [
    id,
  ]);
}
