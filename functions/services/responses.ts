import { raise } from "../../src/core/errors.ts";
import { carry, type Lineage } from "../../src/core/plan/lineage.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "./accounts.ts";
import { type FormHead, ownedFormHead } from "./form-view.ts";
import { recordedLogic } from "./record-logic.ts";
import { formLineage } from "./versions/reads.ts";
import { resolveWhere } from "./where/resolve.ts";
import { whereSql } from "./where/sql.ts";

export interface Range {
  since: string | null;
  until: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The condition on a response's `test` flag for a read: test answers are left out unless the
 * caller asked for them (SPEC §16). A fixed fragment: only the statement's shape changes.
 */
export const testAnswers = (withTest: boolean) => (withTest ? "true" : "not test");

/** A read's responses: the form's ($1) in the range from $2 to before $3 (either null: open). */
export const inPeriod = (withTest: boolean) =>
  `form_id = $1 and ${testAnswers(withTest)} and ($2::timestamptz is null or submitted_at >= $2) and ($3::timestamptz is null or submitted_at < $3)`;

/** A stored response as a read selects it (RECORD). */
interface StoredResponse {
  id: string;
  submitted_at: string;
  payload: unknown;
  score: unknown;
  version?: number | null;
  lang?: string | null;
  test?: boolean;
  invite?: string | null;
  invite_email?: string | null;
  status?: string;
  ending?: string | null;
  variables?: unknown;
}
const RECORD =
  "id, submitted_at, version, lang, payload, score, test, invite, invite_email, ending, variables";

export function record(row: Pick<FormHead, "definition">, r: StoredResponse) {
  return {
    id: r.id,
    submitted_at: r.submitted_at,
    // the form version it was answered against (responses from before versions: the first)
    ...(r.version !== undefined ? { version: r.version ?? 1 } : {}),
    // the language the respondent read (SPEC §20); the answers are in the form's own terms
    ...(r.lang ? { lang: r.lang } : {}),
    payload: r.payload,
    ...(row.definition.type === "quiz" ? { score: r.score } : {}),
    // the path's ending and the variables' values, as the server computed them (SPEC §24)
    ...recordedLogic(r),
    ...(r.test ? { test: true } : {}),
    // an unfinished partial response (SPEC §25), listed only when asked for
    ...(r.status === "partial" ? { status: "partial" as const } : {}),
    // the personal link it was answered with (SPEC §25), and its address when it had one
    ...(r.invite
      ? { invite: { token: r.invite, ...(r.invite_email ? { email: r.invite_email } : {}) } }
      : {}),
  };
}

/** A stored response with its answers under the live ids and option labels (SPEC §16, §23). */
const live = <R extends { payload: unknown }>(r: R, lines: Lineage): R =>
  lines.maps && r.payload && typeof r.payload === "object"
    ? { ...r, payload: carry(r.payload as Record<string, unknown>, lines) }
    : r;

// test answers (SPEC §16) only when asked for: $4 is include_test
const WHERE =
  "form_id = $1 and ($2::timestamptz is null or submitted_at >= $2) and ($3::timestamptz is null or submitted_at < $3) and (not test or $4::boolean)";

/** Which responses a list reads (SPEC §25): the completed ones (default), partials, or both. */
export type ResponseStatus = "complete" | "partial" | "all";

const COMPLETE = `select id, form_id, submitted_at, version, lang, payload, score, test, invite, invite_email,
  ending, variables, 'complete' as status from responses`;
const PARTIAL = `select id, form_id, updated_at as submitted_at, null::int as version, lang, payload,
  null::jsonb as score, false as test, null::text as invite, null::text as invite_email,
  null::text as ending, null::jsonb as variables, 'partial' as status from partials`;
/** The rows a list reads, under the responses table's own name and columns. */
const source = (status: ResponseStatus) =>
  status === "complete"
    ? "responses"
    : `(${status === "partial" ? PARTIAL : `${COMPLETE} union all ${PARTIAL}`}) responses`;

/** A page of a list of responses, as REST's two lists and MCP's tools ask for it. */
export interface ListQuery {
  since?: string | null | undefined;
  until?: string | null | undefined;
  limit: number;
  /** The rows skipped, or the page of `limit` rows (from 1). */
  offset?: number | undefined;
  page?: number | undefined;
  include_test?: boolean | undefined;
  where?: unknown;
  status?: ResponseStatus | undefined;
}

/** Newest first; the (form_id, submitted_at desc, id desc) index serves both queries. */
export async function listRecords(ctx: AppContext, account: Account, slug: string, q: ListQuery) {
  const { limit, where, status = "complete" } = q;
  const range = { since: q.since ?? null, until: q.until ?? null };
  const withTest = q.include_test ?? false;
  const offset = q.offset ?? ((q.page ?? 1) - 1) * limit;
  const row = await ownedFormHead(ctx, account, slug);
  const from = source(status);
  // answers under an earlier id (`formerly`) read under the live one, as exports and stats do
  const lines = await formLineage(ctx, row);
  // the filter (SPEC §18) runs in the database; its parameters follow the range's
  const filter = whereSql(await resolveWhere(ctx, row, where, lines), 5);
  const n = filter.params.length;
  const [rows, count] = await Promise.all([
    ctx.db.query<StoredResponse>(
      `select ${RECORD}${status === "complete" ? "" : ", status"} from ${from}
        where ${WHERE} and ${filter.text}
        order by submitted_at desc, id desc limit $${5 + n} offset $${6 + n}`,
      [row.id, range.since, range.until, withTest, ...filter.params, limit, offset],
    ),
    ctx.db.query<{ total: number }>(
      `select count(*)::int as total from ${from} where ${WHERE} and ${filter.text}`,
      [row.id, range.since, range.until, withTest, ...filter.params],
    ),
  ]);
  return { records: rows.map((r) => record(row, live(r, lines))), total: count[0]?.total ?? 0 };
}

export async function getRecord(ctx: AppContext, account: Account, slug: string, id: string) {
  const row = await ownedFormHead(ctx, account, slug);
  if (!UUID.test(id)) raise("not_found", "No such response.");
  const [r] = await ctx.db.query<StoredResponse>(
    `select ${RECORD} from responses where form_id = $1 and id = $2`,
    [row.id, id],
  );
  if (!r) raise("not_found", "No such response.");
  return record(row, live(r!, await formLineage(ctx, row)));
}
