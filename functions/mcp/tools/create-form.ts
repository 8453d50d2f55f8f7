import { z } from "zod";
import { createForm } from "../../services/forms.ts";
import { fromSource, source } from "../args.ts";
import { submitFacts } from "../form-answer.ts";
import { formLinks } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const createFormTool = defineTool({
  name: "create_form",
  title: "Create a form",
  description:
    "Create a form, survey or quiz from a definition (or a form file as markdown); live at once, its file committed. An existing slug is a conflict: use update_form or deploy_form.",
  input: source,
  output: z.object(formLinks),
  annotations: WRITE,
  run: async (ctx, account, args) => {
    const { form_slug: _alias, ...created } = await createForm(ctx, account, fromSource(args));
    return { ...created, ...(await submitFacts(ctx, account, created.slug)) };
  },
});
