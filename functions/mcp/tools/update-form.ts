import { z } from "zod";
import { getForm, updateForm } from "../../services/forms.ts";
import { planRequest } from "../../services/versions/plan.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { slug } from "../args.ts";
import { withPathPrefix } from "../errors.ts";
import { detailAnswer } from "../form-answer.ts";
import { formDetail } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const updateFormTool = defineTool({
  name: "update_form",
  title: "Update a form",
  description:
    'Change keys of a form and commit its file. Objects merge one level; fields is replaced whole; slug cannot change. E.g. patch {"title": "New"}. Append a field: add_field. dry_run: plan only; confirm: strand answers.',
  input: z.object({
    slug,
    patch: z.record(z.string(), z.unknown()).describe("Keys of the definition to change"),
    dry_run: z.boolean().optional(),
    confirm: z.boolean().optional(),
  }),
  output: formDetail,
  annotations: { ...WRITE, idempotentHint: true },
  meta: FORM_UI,
  run: async (ctx, account, args) => {
    if (args.dry_run) {
      const plan = await withPathPrefix(
        () => planRequest(ctx, account, args.slug, args.patch),
        (path) => `patch.${path}`,
      );
      return { ...detailAnswer(ctx, await getForm(ctx, account, args.slug)), plan };
    }
    return detailAnswer(
      ctx,
      await withPathPrefix(
        () => updateForm(ctx, account, args.slug, args.patch, { confirm: args.confirm }),
        (path) => `patch.${path}`,
      ),
    );
  },
});
