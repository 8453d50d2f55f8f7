import { z } from "zod";
import { readFormFile } from "../../services/forms.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const getFormFileTool = defineTool({
  name: "get_form_file",
  title: "Read a form file",
  description: "The form's file as committed; edit it and send it to deploy_form.",
  input: z.object({ slug }),
  output: z.object({ slug: z.string(), path: z.string(), content: z.string() }),
  annotations: READ,
  run: (ctx, account, args) => readFormFile(ctx, account, args.slug),
});
