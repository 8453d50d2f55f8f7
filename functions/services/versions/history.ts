import type { Change } from "../../../src/core/plan/plan.ts";
import type { Form } from "../../../src/core/schema.ts";
import type { AppContext } from "../../context.ts";
import type { Account } from "../accounts.ts";
import { ownedFormHead } from "../form-view.ts";

/** Records the form's live version as stored (at creation; again once its commit is known). */
export async function snapshotVersion(ctx: AppContext, formId: string): Promise<void> {
  await ctx.db.query(
    `insert into form_versions (form_id, version, definition, commit_sha)
       select id, version, definition, commit_sha from forms where id = $1
     on conflict (form_id, version) do update set commit_sha = excluded.commit_sha`,
    [formId],
  );
}

/** GET /api/forms/{slug}/versions: newest first. */
export async function listVersions(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  const versions = await ctx.db.query<{
    version: number;
    commit_sha: string | null;
    created_at: string;
    retired_at: string | null;
    changes: Change[];
  }>(
    `select version, commit_sha, created_at, retired_at, changes from form_versions
      where form_id = $1 order by version desc`,
    [row.id],
  );
  return { slug, version: row.version, versions };
}

/** The definitions of every version before the live one, oldest first (for reads across versions). */
export async function earlierDefinitions(ctx: AppContext, formId: string): Promise<Form[]> {
  const rows = await ctx.db.query<{ definition: Form }>(
    "select definition from form_versions where form_id = $1 and retired_at is not null order by version",
    [formId],
  );
  return rows.map((r) => r.definition);
}

/** One version's definition and when it stopped being live (null: it is the live one). */
export async function versionOf(ctx: AppContext, formId: string, version: number) {
  const [row] = await ctx.db.query<{ definition: Form; retired_at: string | null }>(
    "select definition, retired_at from form_versions where form_id = $1 and version = $2",
    [formId, version],
  );
  return row ?? null;
}
