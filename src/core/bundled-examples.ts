// The example forms Formdown ships in forms/@me/ are for trying it out: `npm start` on a
// repository without forms of its own serves them. Once the repository has a form file of its
// own, the examples are neither built nor deployed (SPEC §17): a production site publishes only
// the operator's forms (an example page there would submit to an account that does not exist).

/** The bundled examples, as paths inside the repository. */
export const BUNDLED_EXAMPLES = [
  "forms/@me/contact.md",
  "forms/@me/product-survey.md",
  // its translations (SPEC §20): part of the example, not forms of the operator's
  "forms/@me/product-survey.de.md",
  "forms/@me/product-survey.ar.md",
  "forms/@me/quiz.md",
  "forms/@me/quiz-fr.md",
  // logic (SPEC §24): groups, jumps, endings and variables (its tests beside it, quote.test.yaml)
  "forms/@me/quote.md",
] as const;

/** True for a bundled example's path (`forms/@me/contact.md`). */
export const isExample = (path: string) => (BUNDLED_EXAMPLES as readonly string[]).includes(path);

/** True when `paths` (repository form files) hold a form file that is not a bundled example. */
export const hasOwnForms = (paths: readonly string[]) =>
  paths.some((p) => /^forms\/@[^/]+\/[^/]+\.md$/.test(p) && !isExample(p));

/** The form files to build and deploy: the examples only when there is nothing else. */
export const operatorForms = (paths: readonly string[]) =>
  hasOwnForms(paths) ? paths.filter((p) => !isExample(p)) : [...paths];
