import { z } from "zod";
import { readFormFile } from "../../services/form-files.ts";
import { readTranslationFile } from "../../services/translation-files.ts";
import { lang, slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const getFormFileTool = defineTool({
  name: "get_form_file",
  title: "Read a form file",
  description: "As committed (lang: its translation), to edit for deploy_form.",
  input: z.object({ slug, lang }),
  output: z.object({ slug: z.string(), path: z.string(), content: z.string() }),
  grant: { scope: "read" },
  annotations: READ,
  run: (ctx, account, args) =>
    args.lang === undefined
      ? readFormFile(ctx, account, args.slug)
      : readTranslationFile(ctx, account, args.slug, args.lang),
});
