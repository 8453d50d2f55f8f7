import { z } from "zod";
import { getForm, updateForm } from "../../services/forms.ts";
import { planRequest } from "../../services/versions/plan.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { confirm, dryRun, slug } from "../args.ts";
import { withPathPrefix } from "../errors.ts";
import { detailAnswer } from "../form-answer.ts";
import { formChanged } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const updateFormTool = defineTool({
  name: "update_form",
  title: "Update a form",
  description:
    'Change keys, e.g. patch {"title":"New"}: objects merge one level, fields is replaced whole (one field: update_field etc.), translations as in create_form. dry_run: plan only; confirm: strand answers. Answers as get_form.',
  input: z.object({
    slug,
    patch: z.record(z.string(), z.unknown()),
    dry_run: dryRun,
    confirm,
  }),
  output: formChanged,
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
