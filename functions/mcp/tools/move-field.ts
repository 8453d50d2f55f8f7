import { z } from "zod";
import { moveField } from "../../services/field-changes.ts";
import { dryRun, fieldId, slug } from "../args.ts";
import { fieldChange } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const moveFieldTool = defineTool({
  name: "move_field",
  title: "Move a field",
  description: "Put one field before or after another; only the order changes. dry_run: plan only.",
  input: z.object({
    slug,
    field_id: fieldId,
    before: fieldId.optional(),
    after: fieldId.optional(),
    dry_run: dryRun,
  }),
  output: fieldChange,
  grant: { rest: "POST /api/forms/:slug/fields/:id/move" },
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, account, a) =>
    moveField(ctx, account, a.slug, a.field_id, a, { dryRun: a.dry_run }) as never,
});
