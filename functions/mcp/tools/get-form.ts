import { z } from "zod";
import { getForm } from "../../services/forms.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { lang, slug } from "../args.ts";
import { detailAnswer } from "../form-answer.ts";
import { formDetail } from "../outputs.ts";
import { defineTool, READ } from "../tool.ts";

export const getFormTool = defineTool({
  name: "get_form",
  title: "Get a form",
  description:
    "Config (lang: translated), status, URLs, counts; humanness: submit_url needs an anti-bot token.",
  input: z.object({ slug, lang }),
  output: formDetail,
  grant: { rest: "GET /api/forms/:slug" },
  annotations: READ,
  meta: FORM_UI,
  run: async (ctx, account, args) =>
    detailAnswer(ctx, await getForm(ctx, account, args.slug, args.lang)),
});
