import { z } from "zod";
import { formSchema } from "../../src/core/schema.ts";
import { parseInstant } from "../services/responses.ts";

/** Arguments several tools share, described once. */
export const slug = z.string().min(1).describe("The form's slug");

export const since = z.string().optional().describe("From this ISO date or time (inclusive)");
export const until = z.string().optional().describe("Before this ISO date or time");

export const range = (a: { since?: string | undefined; until?: string | undefined }) => ({
  since: parseInstant("since", a.since),
  until: parseInstant("until", a.until),
});

/** A form given whole: the JSON definition (checked with the full schema) or a form file. */
export const source = z
  .object({
    definition: formSchema.optional(),
    markdown: z
      .string()
      .optional()
      .describe("Or a whole form file: YAML header between --- lines, then Markdown"),
  })
  .refine(
    (v) => (v.definition === undefined) !== (v.markdown === undefined),
    "give either definition or markdown, not both",
  );

export const fromSource = (a: z.output<typeof source>) =>
  a.markdown !== undefined ? { markdown: a.markdown } : a.definition;
