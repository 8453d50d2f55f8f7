import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { operatorForms } from "../../src/core/bundled-examples.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import type { AppContext } from "../context.ts";
import { ownTurn } from "../http/body.ts";
import { filesAt, gitState, renamesSince } from "../repo/git-history.ts";
import { type Account, accountByHandler, createAccount } from "../services/accounts.ts";
import { appliedCommit, type ReconcileResult, reconcile } from "../services/reconcile.ts";
import { translationPath } from "../services/translations.ts";

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
 * The server's own repository reconciled (SPEC §22): start-up and the branch watcher call this,
 * `formdown deploy` reaches the same `reconcile` through POST /api/deploys. Every account with
 * files here (or forms this repository gave) gets its files at HEAD: added and changed ones
 * deployed, renamed ones moved, removed ones closed.
 */
export async function reconcileRepository(
  ctx: AppContext,
  options: { committed?: boolean } = {},
): Promise<{ deployed: string[]; invalid: string[]; results: ReconcileResult[] }> {
  const git = ctx.repo.kind === "git" ? await gitState(ctx.config.repoDir) : null;
  const repository =
    git?.repository ??
    (ctx.repo.kind === "github"
      ? `github.com/${ctx.config.githubRepository}`
      : `path:${resolve(ctx.config.repoDir)}`);
  // start-up takes the folder as it is; the watcher reads HEAD (what is written but not committed
  // is not deployed by a commit)
  const committed =
    options.committed && git?.head ? await filesAt(ctx.config.repoDir, git.head) : null;
  const read = async (path: string) =>
    committed ? (committed.get(path) ?? null) : ctx.repo.read(path);
  const listed = committed ? [...committed.keys()] : await ctx.repo.list("forms");
  const all = listed.filter((p) => FILE.test(p));
  // the bundled examples only on a repository without forms of its own, and never closed
  const chosen = new Set(operatorForms(all));
  const byHandler = new Map<string, string[]>();
  for (const path of all) {
    const handler = FILE.exec(path)![1]!;
    // pushed, not copied: a copy per file was quadratic (20,000 files held the loop 3.6 s)
    const listed = byHandler.get(handler);
    if (listed) listed.push(path);
    else byHandler.set(handler, [path]);
  }
  // an account whose every file is gone still has its forms closed
  for (const { handler } of await ctx.db.query<{ handler: string }>(
    `select distinct a.handler from forms f join accounts a on a.id = f.account_id
      where f.repository = $1`,
    [repository],
  ))
    if (!byHandler.has(handler)) byHandler.set(handler, []);
  const results: ReconcileResult[] = [];
  for (const [handler, paths] of byHandler) {
    const account = await accountFor(ctx, handler);
    if (!account) continue;
    const files = [];
    for (const path of paths.filter((p) => chosen.has(p))) {
      const text = (await read(path)) ?? "";
      // a file a turn: the watcher's files are read from memory, without a turn between them
      await ownTurn();
      const parsed = parseFormFile(text, path);
      // the translation files beside it come with it (SPEC §20)
      const translations: Record<string, string> = {};
      const form = parsed.ok ? parsed.form : null;
      for (const lang of form?.languages ?? []) {
        const t = await read(translationPath(handler, form!.slug, lang));
        if (t !== null) translations[lang] = t;
      }
      files.push({ path, text, translations });
    }
    const last = git?.head ? await appliedCommit(ctx, account, repository) : null;
    const renames = git?.head
      ? await renamesSince(ctx.config.repoDir, last, git.head, `forms/@${handler}`)
      : [];
    const done = await reconcile(ctx, account, {
      repository,
      commit: git?.head ?? null,
      files,
      renames,
      complete: true,
      keep: paths.filter((p) => !chosen.has(p)),
    });
    results.push(...done.results);
  }
  for (const r of results)
    if (r.result === "invalid") ctx.log.error(`  ${r.reason ?? `${r.path}: not valid`}`);
  return {
    deployed: results.filter((r) => LIVE.has(r.result)).map((r) => r.path),
    invalid: results.filter((r) => r.result === "invalid").map((r) => r.path),
    results,
  };
}

const LIVE = new Set(["created", "updated", "renamed", "unchanged"]);

/** The handler's account; in embedded mode one is made for a handler that has none yet. */
async function accountFor(ctx: AppContext, handler: string): Promise<Account | null> {
  const account = await accountByHandler(ctx, handler);
  if (account || !ctx.config.embedded) return account;
  await createAccount(ctx, { handler });
  return accountByHandler(ctx, handler);
}
