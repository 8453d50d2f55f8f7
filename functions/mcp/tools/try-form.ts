import { z } from "zod";
import { raise } from "../../../src/core/errors.ts";
import { pageModel } from "../../../src/lib/page-model.ts";
import { findForm, formStatus } from "../../services/form-view.ts";
import { submit } from "../../services/submit.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

const NOTE = "Try it: what you submit here is stored as a test response, left out of counts.";

/**
 * Trying a form, live ones too (SPEC §18): without `fields`, the respondent's page, rendered by
 * the pages' components (the form app shows it); with them, a test answer (SPEC §16) through the
 * submit service, as the owner's key sends one, or with `test: false` a real response. Visible to
 * the model as well as the app: it is the owner's path to a live form, and anti-bot stays on.
 */
export const tryFormTool = defineTool({
  name: "try_form",
  title: "Try a form",
  description:
    "A form's page; fields: a test response, live forms too (test: false: a real one), no anti-bot.",
  input: z.object({
    slug,
    fields: z.record(z.string(), z.unknown()).optional(),
    lang: z.string().optional(),
    test: z.boolean().optional(),
  }),
  output: z.looseObject({}),
  grant: { scope: "write", audit: { action: "form.try" } },
  annotations: WRITE,
  run: async (ctx, account, a) => {
    const lang = a.lang ? { lang: a.lang } : {};
    if (a.fields !== undefined)
      return submit(ctx, a.slug, {
        body: { fields: a.fields, ...lang, ...(a.test === false ? { test: false } : {}) },
        ip: undefined,
        idempotencyKey: undefined,
        accountId: account.id,
      });
    const row = await findForm(ctx, a.slug);
    if (!row || row.account_id !== account.id)
      return raise("not_found", `No form with the slug "${a.slug}".`);
    // the owner tries every form, drafts and protected ones too; a test answer needs no anti-bot
    const form = { ...row.definition, humanness: false };
    const model = pageModel(form, row.handler, {
      status: formStatus(row) === "closed" ? "closed" : "live",
      access: "public",
      version: row.version,
      id: row.id,
      translations: row.translations,
      ...lang,
    });
    const html = await ctx.apps?.page(model);
    if (!html) return raise("not_found", "This server renders no form pages (no pages build).");
    return { html, note: NOTE };
  },
});
