// Which ending a respondent sees after submitting (SPEC §13). The submit's answer names it
// (`ending`), and the page shows the one named, so the page and the API cannot disagree.

export interface Ending {
  title?: string | undefined;
  body?: string | undefined;
  redirect_url?: string | undefined;
}

export type EndingKind = "default" | "pass" | "fail";

interface EndingForm {
  type: string;
  ending?: Ending | undefined;
  quiz: { pass_ending?: Ending | undefined; fail_ending?: Ending | undefined };
}

/** `pass`/`fail` when a quiz with a pass mark has that ending; otherwise the form's own. */
export function endingKind(form: EndingForm, passed: boolean | null | undefined): EndingKind {
  if (form.type !== "quiz" || passed === null || passed === undefined) return "default";
  if (passed && form.quiz.pass_ending) return "pass";
  if (!passed && form.quiz.fail_ending) return "fail";
  return "default";
}

/** The ending of a kind; an empty ending means the page's own "Thank you". */
export function endingOf(form: EndingForm, kind: EndingKind): Ending {
  const chosen =
    kind === "pass" ? form.quiz.pass_ending : kind === "fail" ? form.quiz.fail_ending : undefined;
  return chosen ?? form.ending ?? {};
}
