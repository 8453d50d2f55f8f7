import { z } from "zod";
import { testForm } from "../../services/logic-tests.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

// Kept short for tools/list's 20,000 bytes: the case shape is the schema resource's `tests`.
export const testFormTool = defineTool({
  name: "test_form",
  title: "Test a form's logic",
  description:
    "Run logic cases (formdown://schema/form, tests) on the live or a proposed definition; changes nothing.",
  input: z.object({
    slug,
    cases: z.array(z.unknown()).optional(),
    definition: z.record(z.string(), z.unknown()).optional(),
  }),
  output: z.object({ results: z.array(z.unknown()), passed: z.number(), failed: z.number() }),
  grant: { rest: "POST /api/forms/:slug/test" },
  annotations: READ,
  run: async (ctx, account, a) => ({ ...(await testForm(ctx, account, a.slug, a)) }),
});
