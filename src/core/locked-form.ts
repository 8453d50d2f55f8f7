import { publicForm } from "./public-form.ts";
import type { Form } from "./schema.ts";

/**
 * A link or password form as anyone may see it before giving the token or password (SPEC §19
 * "Protected forms stay protected"): its title and look, without its questions, body, endings
 * or logic.
 */
export function lockedForm(form: Form): Form {
  const open = publicForm(form);
  return {
    ...open,
    body: undefined,
    fields: [],
    ending: undefined,
    endings: undefined,
    variables: undefined,
    steps: undefined,
    ...(open.quiz
      ? { quiz: { ...open.quiz, pass_ending: undefined, fail_ending: undefined } }
      : {}),
  } as Form;
}

/** Whether a form's content needs the link token or the password. */
export const isProtected = (mode: string): boolean => mode === "link" || mode === "password";
