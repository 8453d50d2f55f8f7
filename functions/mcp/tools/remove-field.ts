import { z } from "zod";
import { changeOptions } from "../../contracts/forms.ts";
import { removeField } from "../../services/field-changes.ts";
import { confirm, dryRun, fieldId, slug } from "../args.ts";
import { fieldChange } from "../outputs.ts";
import { DELETE, defineTool } from "../tool.ts";

export const removeFieldTool = defineTool({
  name: "remove_field",
  title: "Remove a field",
  description:
    "Its answers stay stored (retired in exports); with answers it needs confirm. dry_run: plan only.",
  input: z.object({ slug, field_id: fieldId, dry_run: dryRun, confirm }),
  output: fieldChange,
  grant: { rest: "DELETE /api/forms/:slug/fields/:id" },
  annotations: DELETE,
  run: (ctx, account, a) =>
    removeField(ctx, account, a.slug, a.field_id, changeOptions(a)) as never,
});
