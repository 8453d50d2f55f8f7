import type { Form } from "./schema.ts";

/**
 * The definition as a respondent may see it: no quiz answer key or explanations, no
 * notification recipients, no logic tests (a quiz's would hold its answers). The public page and
 * the public form JSON are built from this.
 */
export function publicForm(form: Form): Form {
  const { tests: _tests, ...rest } = form;
  return {
    ...rest,
    notifications: { ...form.notifications, email: [] },
    fields: form.fields.map((field) => {
      const { answer: _answer, explanation: _explanation, ...rest } = field;
      return rest as typeof field;
    }),
  };
}
