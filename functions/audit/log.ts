import type { AppContext } from "../context.ts";
import type { Db } from "../db/db.ts";
import { pruneRows } from "../db/prune.ts";
import type { Account } from "../services/accounts.ts";

/** How long the audit log keeps a row (SPEC §26). */
export const AUDIT_DAYS = 365;

/** What one row says beside who: the action, the form it touched, and the call's own details. */
export interface AuditEntry {
  action: string;
  form?: string | null;
  detail?: Record<string, unknown>;
}

/** Longest text kept of one detail value: a row stays small. */
const MAX_VALUE = 500;

/**
 * The parameters a row keeps: ids, formats, filters, modes. Never passwords, tokens, receiver
 * URLs (a Slack URL is a secret), definitions or answers, whatever the call sent.
 */
const KEPT = new Set([
  "id",
  "response_id",
  "delivery_id",
  "member_id",
  "field",
  "op",
  "value",
  "format",
  "where",
  "since",
  "until",
  "page",
  "limit",
  "offset",
  "include_test",
  "test",
  "mode",
  "lang",
  "version",
  "period",
  "to",
  "before",
  "after",
  "events",
  "scopes",
  "path",
  "rotate",
  "confirm",
]);

/**
 * Text as jsonb stores it: Postgres refuses a NUL and a lone surrogate, and a row refused is a
 * read left out of the log (a `?page=%00` exported unrecorded).
 */
const storable = (text: string) => text.replaceAll("\u0000", "").toWellFormed();

/** What a row keeps of a call's path parameters, query or tool arguments (the slug is `form`). */
export function auditDetail(values: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!KEPT.has(key) || value === undefined || value === null || value === "") continue;
    if (typeof value === "number" || typeof value === "boolean") kept[key] = value;
    else {
      const text = storable(typeof value === "string" ? value : JSON.stringify(value));
      kept[key] = text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
    }
  }
  return kept;
}

/** Writes one row of the audit log for the calling key (its member, if it is one). */
export async function writeAudit(ctx: AppContext, account: Account, entry: AuditEntry) {
  await ctx.db.query(
    `insert into audit_log (account_id, key_id, member_id, actor, action, form, detail, ip)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
    [
      account.id,
      account.keyId,
      account.memberId ?? null,
      account.actor ?? account.handler,
      entry.action,
      entry.form ?? null,
      JSON.stringify(entry.detail ?? {}),
      account.ip ?? null,
    ],
  );
}

/** Writes the row, or logs why it could not: the call it records has already been answered. */
export function recordAudit(ctx: AppContext, account: Account, entry: AuditEntry): Promise<void> {
  return writeAudit(ctx, account, entry).catch((error: unknown) =>
    ctx.log.error(`audit log: could not record ${entry.action}`, error),
  );
}

/** Removes rows older than AUDIT_DAYS, a batch at a time; answers how many went. */
export const pruneAudit = (db: Db, rounds = 10) =>
  pruneRows(db, "audit_log", "at < now() - make_interval(days => $1)", AUDIT_DAYS, rounds);
