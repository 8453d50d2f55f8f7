import { z } from "zod";
import { changeOptions } from "../../contracts/forms.ts";
import { updateField } from "../../services/field-changes.ts";
import { confirm, dryRun, fieldId, slug } from "../args.ts";
import { fieldChange } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const updateFieldTool = defineTool({
  name: "update_field",
  title: "Change a field",
  description:
    "Change one field, e.g. changes {label: New}; null drops a key; a new id keeps its answers. dry_run: plan only; confirm: strand answers.",
  input: z.object({
    slug,
    field_id: fieldId,
    changes: z.record(z.string(), z.unknown()),
    dry_run: dryRun,
    confirm,
  }),
  output: fieldChange,
  grant: { rest: "PATCH /api/forms/:slug/fields/:id" },
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, account, a) =>
    updateField(ctx, account, a.slug, a.field_id, a.changes, {
      ...changeOptions(a),
      changesPath: "changes",
    }) as never,
});
