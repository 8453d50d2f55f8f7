import { z } from "zod";
import { raise } from "../../../src/core/errors.ts";
import { pageModel } from "../../../src/lib/page-model.ts";
import { findForm, formStatus } from "../../services/form-view.ts";
import { submit } from "../../services/submit.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

const NOTE = "Try it: what you submit here is stored as a test response, left out of counts.";

/**
 * The form app's own tool (SPEC §18), hidden from the model (`visibility: ["app"]`): without
 * `fields`, the respondent's page of the form, rendered by the pages' components; with them, a
 * test answer (SPEC §16) through the submit service, as the owner's key sends one.
 */
export const tryFormTool = defineTool({
  name: "try_form",
  title: "Try a form",
  description: "The form app's: its page; with fields, a test response.",
  input: z.object({
    slug,
    fields: z.record(z.string(), z.unknown()).optional(),
    lang: z.string().optional(),
  }),
  output: z.looseObject({}),
  annotations: WRITE,
  meta: { ui: { visibility: ["app"] } },
  run: async (ctx, account, a) => {
    const lang = a.lang ? { lang: a.lang } : {};
    if (a.fields !== undefined)
      return submit(ctx, a.slug, {
        body: { fields: a.fields, ...lang },
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
      translations: row.translations,
      ...lang,
    });
    const html = await ctx.apps?.page(model);
    if (!html) return raise("not_found", "This server renders no form pages (no pages build).");
    return { html, note: NOTE };
  },
});
