import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { operatorForms } from "../../src/core/bundled-examples.ts";
import { formatFormFileError, parseFormFile } from "../../src/core/form-file.ts";
import { translationName } from "../../src/core/translation-file.ts";
import type { AppContext } from "../context.ts";
import { type Account, accountByHandler, createAccount } from "../services/accounts.ts";
import { upsertForm } from "../services/deploy.ts";
import { repositoryTranslations } from "../services/translations.ts";

/** The form file a translation file (`event.de.md`) belongs to; any other path as it is. */
const formOf = (path: string) => {
  const t = translationName(path);
  return t ? `${path.slice(0, path.lastIndexOf("/") + 1)}${t.slug}.md` : path;
};

/**
 * First embedded start with an empty database: create the account (FORMDOWN_HANDLER, default
 * `me`), print its key once and keep it in FORMDOWN_DATA_DIR/api-key (mode 0600).
 */
export async function ensureFirstAccount(
  ctx: AppContext,
): Promise<{ handler: string; key: string } | null> {
  const [row] = await ctx.db.query<{ n: number }>("select count(*)::int as n from accounts");
  if ((row?.n ?? 0) > 0) return null;
  const created = await createAccount(ctx, { handler: ctx.config.handler });
  await mkdir(ctx.config.dataDir, { recursive: true });
  const file = join(ctx.config.dataDir, "api-key");
  await writeFile(file, `${created.api_key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { handler: created.handler, key: created.api_key };
}

const FILE = /^forms\/@([a-z0-9][a-z0-9-]*)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/**
 * Deploys every valid forms/@<handler>/<slug>.md of the repository into its handler's account
 * (`only`: just these paths — the files a new commit touched, see watch-head.ts).
 */
export async function deployRepositoryForms(
  ctx: AppContext,
  only?: ReadonlySet<string>,
): Promise<{ deployed: string[]; invalid: string[] }> {
  const deployed: string[] = [];
  const invalid: string[] = [];
  const accounts = new Map<string, Account | null>();
  // a changed translation file deploys its form again, with it
  const wanted = only && new Set([...only].map(formOf));
  // the bundled examples only on a repository without forms of its own
  for (const path of operatorForms(await ctx.repo.list("forms"))) {
    const m = FILE.exec(path);
    if (!m || (wanted && !wanted.has(path))) continue;
    const handler = m[1]!;
    if (!accounts.has(handler)) {
      let account = await accountByHandler(ctx, handler);
      if (!account && ctx.config.embedded) {
        await createAccount(ctx, { handler });
        account = await accountByHandler(ctx, handler);
      }
      accounts.set(handler, account);
    }
    const account = accounts.get(handler);
    if (!account) continue;
    const parsed = parseFormFile((await ctx.repo.read(path)) ?? "", path);
    if (!parsed.ok) {
      invalid.push(path);
      for (const e of parsed.errors) ctx.log.error(`  ${formatFormFileError(e)}`);
      continue;
    }
    try {
      // the translation files beside it come with it (SPEC §20)
      const translations = await repositoryTranslations(ctx, handler, parsed.form);
      await upsertForm(ctx, account, m[2]!, { ...parsed.form, translations }, { path, sha: null });
      deployed.push(path);
    } catch (error) {
      invalid.push(path);
      ctx.log.error(`  ${path}: ${(error as Error).message}`);
    }
  }
  return { deployed, invalid };
}
