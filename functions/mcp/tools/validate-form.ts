import { z } from "zod";
import { definitionFrom } from "../../services/form-files.ts";
import { fromSource, sourceToCheck } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const validateFormTool = defineTool({
  name: "validate_form",
  title: "Validate a form (dry run)",
  description: "Changes nothing: the form with its defaults, or every problem.",
  input: sourceToCheck,
  output: z.object({ valid: z.boolean(), form: z.record(z.string(), z.unknown()) }),
  grant: { scope: "read" },
  annotations: READ,
  run: async (_ctx, _account, args) => ({ valid: true, form: definitionFrom(fromSource(args)) }),
});
