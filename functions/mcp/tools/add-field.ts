import { z } from "zod";
import { fieldSchema } from "../../../src/core/field-schema.ts";
import { ownedForm } from "../../services/form-view.ts";
import { updateForm } from "../../services/forms.ts";
import { slug } from "../args.ts";
import { withPathPrefix } from "../errors.ts";
import { detailAnswer } from "../form-answer.ts";
import { formChanged } from "../outputs.ts";
import { defineTool, WRITE } from "../tool.ts";

export const addFieldTool = defineTool({
  name: "add_field",
  title: "Add a field",
  description:
    "Append one field (a new snake_case id; show_if on earlier fields only), e.g. {id: email, type: email, label: Your email}. Answers as get_form.",
  // the field is checked against the complete field schema; tools/list shows a brief of it
  input: z.object({ slug, field: fieldSchema }),
  output: formChanged,
  grant: { scope: "write", audit: { action: "field.add" } },
  annotations: WRITE,
  run: async (ctx, account, args) => {
    const row = await ownedForm(ctx, account, args.slug);
    const at = `fields[${row.definition.fields.length}]`;
    const detail = await withPathPrefix(
      () => updateForm(ctx, account, args.slug, { fields: [...row.definition.fields, args.field] }),
      // the form's rules speak of the appended field by its index; the caller knows it as `field`
      (path) => (path.startsWith(at) ? `field${path.slice(at.length)}` : path),
    );
    return detailAnswer(ctx, detail);
  },
});
