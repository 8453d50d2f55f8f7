import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { formSchema } from "./core/schema.ts";

// forms/@<handler>/<slug>.md — the id keeps the handler, so the URL maps 1:1 to the file.
const forms = defineCollection({
  loader: glob({
    pattern: "@*/*.md",
    // FORMDOWN_FORMS_DIR lets a build (bench/build-forms.ts) read forms from elsewhere
    base: process.env.FORMDOWN_FORMS_DIR ?? "./forms",
    generateId: ({ entry }) => entry.replace(/\.md$/, ""),
  }),
  schema: formSchema,
});

export const collections = { forms };
