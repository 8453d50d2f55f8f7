import { z } from "zod";
import { updateForm } from "../../services/forms.ts";
import { slug } from "../args.ts";
import { withPathPrefix } from "../errors.ts";
import { detailAnswer } from "../form-answer.ts";
import { formDetail } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const updateFormTool = defineTool({
  name: "update_form",
  title: "Update a form",
  description:
    'Change keys of a form and commit its file. Objects (settings, quiz, …) merge one level; fields is replaced whole; slug cannot change. E.g. patch {"title": "New"}. To append a field: add_field.',
  input: z.object({
    slug,
    patch: z.record(z.string(), z.unknown()).describe("Keys of the definition to change"),
  }),
  output: formDetail,
  annotations: { ...WRITE, idempotentHint: true },
  run: async (ctx, account, args) =>
    detailAnswer(
      ctx,
      await withPathPrefix(
        () => updateForm(ctx, account, args.slug, args.patch),
        (path) => `patch.${path}`,
      ),
    ),
});
