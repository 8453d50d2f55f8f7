// The one reconcile (SPEC §22): what `formdown deploy` sends, and what the server answers.
import { z } from "zod";

const str = z.string();
const path = str.max(500);

export const deployBody = z.object({
  repository: str
    .min(1)
    .max(500)
    .describe("The repository's name: its origin without scheme or .git, or path:<folder>"),
  commit: str
    .regex(/^[0-9a-f]{7,64}$/)
    .nullable()
    .describe("The commit the files are at; stored as the last applied one"),
  files: z
    .array(
      z.object({
        path,
        markdown: str,
        translations: z.record(str.max(35), z.object({ content: str })).optional(),
      }),
    )
    .max(1000)
    .describe("The account's form files at that commit"),
  renames: z
    .array(z.object({ from: path, to: path }))
    .max(1000)
    .default([])
    .describe("What git saw renamed since the last applied commit (git diff -M)"),
  keep: z
    .array(path)
    .max(1000)
    .default([])
    .describe("Present but not deployed (the bundled examples beside forms of one's own)"),
  complete: z
    .boolean()
    .default(true)
    .describe("files is the whole set: a form this repository gave whose file is gone is closed"),
  dry_run: z.boolean().default(false),
  confirm: z.boolean().default(false),
});

const outcome = z.enum([
  "created",
  "updated",
  "unchanged",
  "renamed",
  "closed",
  "invalid",
  "skipped",
]);
export const reconciled = z.object({
  repository: str,
  commit: str.nullable(),
  dry_run: z.boolean(),
  results: z.array(
    z.object({
      path: str,
      slug: str,
      result: outcome,
      form_id: str.optional(),
      url: str.optional(),
      renamed_from: str.optional(),
      reason: str.optional(),
      code: str.optional(),
      plan: z.looseObject({}).optional(),
    }),
  ),
});
export const headQuery = { repository: str.min(1).max(500) };
export const applied = z.object({ repository: str, commit: str.nullable() });
