import { raise } from "../../src/core/errors.ts";
import { isoInstant } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "./accounts.ts";
import { type FormHead, ownedFormHead } from "./form-view.ts";
import { resolveWhere } from "./where/resolve.ts";
import { whereSql } from "./where/sql.ts";

export interface Range {
  since: string | null;
  until: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A since/until value: ISO timestamp with offset, or a bare date meaning midnight UTC. */
export function parseInstant(name: string, value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  // the filter's own reading (years 1 to 9999: Postgres has no year 0)
  return isoInstant(value) ?? raise("invalid_param", `${name} must be an ISO date or timestamp.`);
}

/** A whole-number query parameter within [min, max]; 400 invalid_param otherwise. */
export function parseInteger(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) raise("invalid_param", `${name} must be a whole number.`);
  const n = Number(value);
  if (n < min || n > max) raise("invalid_param", `${name} must be between ${min} and ${max}.`);
  return n;
}

/** `include_test` / `test`: "true" or "false" (absent: false); 400 invalid_param otherwise. */
export function includeTest(value: string | undefined, name = "test"): boolean {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  return raise("invalid_param", `${name} must be true or false.`);
}

/**
 * The condition on a response's `test` flag for a read: test answers are left out unless the
 * caller asked for them (SPEC §16). A fixed fragment: only the statement's shape changes.
 */
export const testAnswers = (withTest: boolean) => (withTest ? "true" : "not test");

export function record(
  row: Pick<FormHead, "definition">,
  r: {
    id: string;
    submitted_at: string;
    payload: unknown;
    score: unknown;
    version?: number | null;
    lang?: string | null;
    test?: boolean;
  },
) {
  return {
    id: r.id,
    submitted_at: r.submitted_at,
    // the form version it was answered against (responses from before versions: the first)
    ...(r.version !== undefined ? { version: r.version ?? 1 } : {}),
    // the language the respondent read (SPEC §20); the answers are in the form's own terms
    ...(r.lang ? { lang: r.lang } : {}),
    payload: r.payload,
    ...(row.definition.type === "quiz" ? { score: r.score } : {}),
    ...(r.test ? { test: true } : {}),
  };
}

// test answers (SPEC §16) only when asked for: $4 is include_test
const WHERE =
  "form_id = $1 and ($2::timestamptz is null or submitted_at >= $2) and ($3::timestamptz is null or submitted_at < $3) and (not test or $4::boolean)";

/** Newest first; the (form_id, submitted_at desc, id desc) index serves both queries. */
export async function listRecords(
  ctx: AppContext,
  account: Account,
  slug: string,
  range: Range,
  limit: number,
  offset: number,
  withTest = false,
  where: unknown = undefined,
) {
  const row = await ownedFormHead(ctx, account, slug);
  // the filter (SPEC §18) runs in the database; its parameters follow the range's
  const filter = whereSql(await resolveWhere(ctx, row, where), 5);
  const n = filter.params.length;
  const [rows, count] = await Promise.all([
    ctx.db.query<{
      id: string;
      submitted_at: string;
      payload: unknown;
      score: unknown;
      test: boolean;
    }>(
      `select id, submitted_at, version, lang, payload, score, test from responses
        where ${WHERE} and ${filter.text}
        order by submitted_at desc, id desc limit $${5 + n} offset $${6 + n}`,
      [row.id, range.since, range.until, withTest, ...filter.params, limit, offset],
    ),
    ctx.db.query<{ total: number }>(
      `select count(*)::int as total from responses where ${WHERE} and ${filter.text}`,
      [row.id, range.since, range.until, withTest, ...filter.params],
    ),
  ]);
  return { records: rows.map((r) => record(row, r)), total: count[0]?.total ?? 0 };
}

export async function getRecord(ctx: AppContext, account: Account, slug: string, id: string) {
  const row = await ownedFormHead(ctx, account, slug);
  if (!UUID.test(id)) raise("not_found", "No such response.");
  const [r] = await ctx.db.query<{
    id: string;
    submitted_at: string;
    payload: unknown;
    score: unknown;
    test: boolean;
  }>(
    "select id, submitted_at, version, lang, payload, score, test from responses where form_id = $1 and id = $2",
    [row.id, id],
  );
  if (!r) raise("not_found", "No such response.");
  return record(row, r!);
}
