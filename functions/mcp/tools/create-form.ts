import { z } from "zod";
import { createForm } from "../../services/forms.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { fromSource, oneSource, source, translations } from "../args.ts";
import { submitFacts } from "../form-answer.ts";
import { formLinks } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const createFormTool = defineTool({
  name: "create_form",
  title: "Create a form",
  description:
    "Live at once, its file committed; status draft: try preview_url, then publish_form. Slug taken: update_form.",
  input: z
    .object({ ...source.shape, status: z.enum(["draft", "live"]).optional(), translations })
    .refine(...oneSource),
  output: z.object(formLinks),
  grant: { rest: "POST /api/forms" },
  annotations: WRITE,
  meta: FORM_UI,
  run: async (ctx, account, args) => {
    const source = {
      ...fromSource(args),
      ...(args.translations ? { translations: args.translations } : {}),
    };
    const input = args.status === "draft" ? { ...source, status: "draft" } : source;
    const { form_slug: _alias, ...created } = await createForm(ctx, account, input);
    return { ...created, ...(await submitFacts(ctx, account, created.slug)) };
  },
});
