// Which ending a respondent sees after submitting (SPEC §13, §24). The submit's answer names it
// (`ending`, chosen by logic/walk.ts), and the page shows the one named, so the page and the API
// cannot disagree.

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

/** The ending of a kind; an empty ending means the page's own "Thank you". */
export function endingOf(form: EndingForm, kind: EndingKind): Ending {
  const chosen =
    kind === "pass" ? form.quiz.pass_ending : kind === "fail" ? form.quiz.fail_ending : undefined;
  return chosen ?? form.ending ?? {};
}
