import { z } from "zod";
import { changeOptions } from "../../contracts/forms.ts";
import { patchForm } from "../../services/forms.ts";
import { FORM_UI } from "../apps/ui-meta.ts";
import { confirm, dryRun, slug } from "../args.ts";
import { withPathPrefix } from "../errors.ts";
import { defineTool, WRITE } from "../tool.ts";

/** What the patch changed and the plan, not the whole config (SPEC §14; get_form has that). */
export const updateFormTool = defineTool({
  name: "update_form",
  title: "Update a form",
  description:
    "Change keys: patch e.g. {title: New}; objects merge one level, fields is replaced whole (one field: update_field), translations by language. dry_run: plan only; confirm: strand answers.",
  input: z.object({
    slug,
    patch: z.record(z.string(), z.unknown()),
    dry_run: dryRun,
    confirm,
  }),
  output: z.object({
    slug: z.string(),
    changed: z.array(z.string()),
    plan: z.looseObject({}),
  }),
  grant: { rest: "PATCH /api/forms/:slug" },
  annotations: { ...WRITE, idempotentHint: true },
  meta: FORM_UI,
  run: (ctx, account, args) =>
    withPathPrefix(
      () => patchForm(ctx, account, args.slug, args.patch, changeOptions(args)),
      (path) => `patch.${path}`,
    ),
});
