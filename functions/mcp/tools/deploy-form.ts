import { z } from "zod";
import { raise } from "../../../src/core/errors.ts";
import type { Plan } from "../../../src/core/plan/plan.ts";
import type { AppContext } from "../../context.ts";
import { changeOptions } from "../../contracts/forms.ts";
import type { Account } from "../../services/accounts.ts";
import { deployFormFile } from "../../services/deploy.ts";
import { formPath } from "../../services/form-files.ts";
import { findForm, publicUrl } from "../../services/form-view.ts";
import { deployTranslationFile } from "../../services/translation-files.ts";
import { translationPath } from "../../services/translations.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { confirm, dryRun, lang } from "../args.ts";
import { submitFacts } from "../form-answer.ts";
import { defineTool, WRITE } from "../tool.ts";

const str = z.string();

export const deployFormTool = defineTool({
  name: "deploy_form",
  title: "Deploy a form file",
  description:
    "Commit a form file, make it live: {slug, content} (lang: a translation) or {path} of a committed one. dry_run: plan only; confirm: strand answers.",
  input: z.object({
    slug: str.optional(),
    lang,
    path: str.optional().describe("Or e.g. forms/@acme/contact.md"),
    content: str.optional().describe("The whole file"),
    dry_run: dryRun,
    confirm,
  }),
  output: z.object({
    result: z.enum(["created", "updated", "unchanged", "planned"]),
    /** Empty in a dry run of a form not created yet. */
    form_id: str,
    slug: str,
    path: str,
    /** The seed's name for the live page (`{url, slug, form_id}`); public_url as other tools say it. */
    url: str,
    submit_url: str.optional(),
    humanness: z.boolean().optional(),
    plan: z.record(z.string(), z.unknown()).optional(),
  }),
  grant: { scope: "write", audit: { action: "forms.deploy", form: "answer" } },
  annotations: { ...WRITE, idempotentHint: true },
  meta: FORM_UI,
  run: async (ctx, account, args) => {
    if (args.path === undefined && args.slug === undefined)
      raise("validation_failed", "deploy_form needs slug (with content) or path.", {
        details: [{ field: "slug", message: "is required (or give path)" }],
      });
    if (
      args.path !== undefined &&
      args.slug !== undefined &&
      !args.path.endsWith(`/${args.slug}.md`)
    )
      raise("validation_failed", `path ${args.path} does not name slug ${args.slug}.`, {
        details: [{ field: "path", message: `expected forms/@${account.handler}/${args.slug}.md` }],
      });
    if (args.lang !== undefined) return deployTranslation(ctx, account, args);
    const path = args.path ?? formPath(account.handler, args.slug!);
    const done = await deployFormFile(ctx, account, path, args.content, changeOptions(args));
    if ("plan" in done && done.plan) return planned(ctx, account, done.plan.slug, path, done);
    return { ...done, url: done.public_url, ...(await submitFacts(ctx, account, done.slug)) };
  },
});

/** A dry run answers the seed's fields too: the page the form (or translation) has, or would have. */
async function planned(
  ctx: AppContext,
  account: Account,
  slug: string,
  path: string,
  { plan }: { plan: Plan },
  lang?: string,
) {
  const existing = await findForm(ctx, slug);
  const form_id = existing?.account_id === account.id ? existing.id : "";
  const url = `${publicUrl(ctx, { handler: account.handler, slug })}${lang ? `/${lang}` : ""}`;
  return { result: "planned", form_id, slug, path, url, plan };
}

/** `{slug, lang, content}`: one translation file, the form unchanged (SPEC §20). */
async function deployTranslation(
  ctx: AppContext,
  account: Account,
  args: {
    slug?: string | undefined;
    lang?: string | undefined;
    content?: string | undefined;
    dry_run?: boolean | undefined;
  },
) {
  if (args.slug === undefined || args.content === undefined)
    raise("validation_failed", "deploy_form with lang needs slug and content.", {
      details: [
        { field: args.slug === undefined ? "slug" : "content", message: "is required with lang" },
      ],
    });
  const [slug, lang] = [args.slug!, args.lang!];
  const done = await deployTranslationFile(ctx, account, slug, lang, args.content!, {
    dryRun: args.dry_run,
  });
  if ("plan" in done)
    return planned(ctx, account, slug, translationPath(account.handler, slug, lang), done, lang);
  return { ...done, url: done.public_url, ...(await submitFacts(ctx, account, done.slug)) };
}
