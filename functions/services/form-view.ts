import { raise } from "../../src/core/errors.ts";
import type { Form } from "../../src/core/schema.ts";
import type { Translations } from "../../src/core/translation.ts";
import type { AppContext } from "../context.ts";
import { needForm } from "../scopes.ts";
import type { Account } from "./accounts.ts";
import { FORM_AT, formAtParams } from "./form-address.ts";

export interface FormRow {
  id: string;
  account_id: string;
  handler: string;
  slug: string;
  short_code: string;
  title: string;
  type: string;
  definition: Form;
  access_mode: "public" | "link" | "password" | "closed" | "invite";
  access_token: string | null;
  access_password_hash: string | null;
  file_path: string | null;
  commit_sha: string | null;
  /** The live version (SPEC §16): 1 at creation, one more for each change of the definition. */
  version: number;
  /** A draft: no public page, test answers only, until published (SPEC §16). */
  draft: boolean;
  preview_token: string | null;
  /** Its translations (SPEC §20): language → the translation file's strings. */
  translations: Translations;
  response_count: number;
  created_at: string;
  updated_at: string;
}

const HEAD_COLUMNS = `f.id, f.account_id, a.handler, f.slug, f.short_code, f.title, f.type, f.definition,
  f.access_mode, f.access_token, f.access_password_hash, f.file_path, f.commit_sha, f.version,
  f.draft, f.preview_token, f.translations, f.created_at, f.updated_at`;

export const FORM_COLUMNS = `${HEAD_COLUMNS},
  (select count(*) from responses r where r.form_id = f.id and not r.test)::int as response_count`;

/** A form without its response count, which costs a scan of the form's responses. */
export type FormHead = Omit<FormRow, "response_count">;

export async function findForm(ctx: AppContext, slug: string): Promise<FormRow | null> {
  const [row] = await ctx.db.query<FormRow>(
    `select ${FORM_COLUMNS} from forms f join accounts a on a.id = f.account_id where f.slug = $1`,
    [slug],
  );
  return row ?? null;
}

/**
 * A respondent's form by the page's name for it: its id, its slug, or a slug it was renamed
 * from; with `built` (a page built from files), the form that held the slug at that commit.
 * Uploads, beacons, partials and the unlock of a page built before a rename reach the one form
 * (SPEC §22, form-address.ts).
 */
export async function findPublicForm(
  ctx: AppContext,
  at: string,
  built?: string,
): Promise<FormRow | null> {
  const [row] = await ctx.db.query<FormRow>(
    `select ${FORM_COLUMNS} from forms f join accounts a on a.id = f.account_id
      where f.id = ${FORM_AT}`,
    formAtParams(at, built),
  );
  return row ?? null;
}

/** The caller's form, or 404 (no such slug) / 403 (another account's form). */
export async function ownedForm(ctx: AppContext, account: Account, slug: string): Promise<FormRow> {
  return owned(account, slug, await findForm(ctx, slug));
}

/** As `ownedForm`, without counting responses: for reads that count them their own way. */
export async function ownedFormHead(
  ctx: AppContext,
  account: Account,
  slug: string,
): Promise<FormHead> {
  const [row] = await ctx.db.query<FormHead>(
    `select ${HEAD_COLUMNS} from forms f join accounts a on a.id = f.account_id where f.slug = $1`,
    [slug],
  );
  return owned(account, slug, row ?? null);
}

function owned<T extends FormHead>(account: Account, slug: string, row: T | null): T {
  // the surfaces check it first (auth.ts, mcp/server.ts); every lookup of a form checks it again
  needForm(account, slug);
  if (!row) return raise("not_found", `No form with the slug "${slug}".`);
  if (row.account_id !== account.id) raise("forbidden", "This form belongs to another account.");
  return row;
}

/**
 * `live`, or `closed` when the access mode is closed or a closing limit has passed. Without a
 * count (the submit path), the response cap is left to the submit statement, which enforces it.
 */
export function formStatus(
  row: Pick<FormRow, "access_mode" | "definition"> & { response_count?: number; draft?: boolean },
): "live" | "closed" | "draft" {
  if (row.draft) return "draft";
  if (row.access_mode === "closed") return "closed";
  const { closes_at, max_responses } = row.definition.settings;
  if (closes_at && Date.parse(closes_at) <= Date.now()) return "closed";
  if (
    max_responses !== undefined &&
    row.response_count !== undefined &&
    row.response_count >= max_responses
  ) {
    return "closed";
  }
  return "live";
}

/**
 * The form's page: on the static host when the pages published there hold it, else on the API
 * origin, whose server renders every form (functions/links/page-origins.ts, SPEC §22).
 */
export const publicUrl = (ctx: AppContext, row: Pick<FormRow, "handler" | "slug">) =>
  `${ctx.pages.of(row.handler, row.slug)}/@${row.handler}/${row.slug}`;

/** The URL to share, as its owner sees it: in link mode it carries the token (SPEC §4). */
export const sharedUrl = (
  ctx: AppContext,
  row: Pick<FormRow, "handler" | "slug" | "access_mode" | "access_token">,
) =>
  row.access_mode === "link" && row.access_token
    ? `${publicUrl(ctx, row)}?access=${encodeURIComponent(row.access_token)}`
    : publicUrl(ctx, row);

/**
 * A draft's unguessable preview page (SPEC §16); null once there is no token. On the API origin:
 * only its server renders previews, a static host never holds one.
 */
export const previewUrl = (ctx: AppContext, row: Pick<FormRow, "preview_token">) =>
  row.preview_token ? `${ctx.config.baseUrl}/preview/${row.preview_token}` : null;

/** On the API origin, which serves it (routes/short-links.ts): the static host cannot (SPEC §17). */
export const shortUrl = (ctx: AppContext, row: Pick<FormRow, "short_code">) =>
  `${ctx.config.baseUrl}/${row.short_code}`;

export async function viewCounts(ctx: AppContext, formIds: string[]): Promise<Map<string, number>> {
  if (formIds.length === 0) return new Map();
  const rows = await ctx.db.query<{ form_id: string; views: number }>(
    "select form_id, sum(views)::int as views from form_events where form_id = any($1::uuid[]) group by form_id",
    [formIds],
  );
  return new Map(rows.map((r) => [r.form_id, r.views]));
}

export function summary(ctx: AppContext, row: FormRow, views: number) {
  return {
    slug: row.slug,
    title: row.title,
    type: row.type,
    status: formStatus(row),
    created_at: row.created_at,
    public_url: sharedUrl(ctx, row),
    stats: { views, responses: row.response_count, submissions: row.response_count },
  };
}

export function detail(ctx: AppContext, row: FormRow, views: number) {
  return {
    form_id: row.id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    status: formStatus(row),
    public_url: sharedUrl(ctx, row),
    short_url: shortUrl(ctx, row),
    ...(row.draft && row.preview_token ? { preview_url: previewUrl(ctx, row) } : {}),
    access: { mode: row.access_mode },
    file_path: row.file_path,
    commit_sha: row.commit_sha,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    config: row.definition,
    stats: { views, responses: row.response_count, submissions: row.response_count },
  };
}

/** Short codes always hold a capital letter, so they can never collide with a slug. */
export function shortCode(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const caps = "ABCDEFGHJKLMNPQRSTUVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(7));
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]!);
  chars[bytes[0]! % 7] = caps[bytes[1]! % caps.length]!;
  return chars.join("");
}
