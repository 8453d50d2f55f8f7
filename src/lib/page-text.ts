// What a page needs in its language, computed on the server: the locale's strings (the script
// gets only the ones it uses, for this locale alone), the endings, the step labels.
import { type Ending, endingOf } from "../core/ending.ts";
import type { Field } from "../core/field-schema.ts";
import { isRtl } from "../core/locales/codes.ts";
import { fill, type MessageKey, type Messages, messages } from "../core/locales/index.ts";
import type { Form } from "../core/schema.ts";
import { renderMarkdown } from "./markdown.ts";

/** The strings the page's script shows (the rest are rendered into the HTML). */
const SCRIPT_KEYS: MessageKey[] = [
  "step_of",
  "n_of",
  "closed",
  "uploading",
  "check",
  "changed",
  "verifying",
  "sending",
  "offline",
  "failed",
  "denied",
  "too_many",
  "score",
  "passed",
  "not_passed",
  "right",
  "wrong",
  "err_required",
  "err_rows",
  "err_email",
  "err_number",
  "err_min",
  "err_max",
  "err_min_length",
  "err_max_length",
  "err_date_min",
  "err_date_max",
  "err_invalid",
  "err_size",
  "err_type",
  "err_upload",
];

export interface PageText {
  lang: string;
  dir: "ltr" | "rtl";
  t: Messages;
  /** `t[key]` with `{name}` values filled in. */
  say(key: MessageKey, values?: Record<string, string | number>): string;
}

export function pageText(locale: string, formality?: "formal" | "informal"): PageText {
  const t = messages(locale, formality);
  return {
    lang: locale,
    dir: isRtl(locale) ? "rtl" : "ltr",
    t,
    say: (key, values = {}) => fill(t[key], values),
  };
}

export const scriptStrings = (t: Messages) =>
  Object.fromEntries(SCRIPT_KEYS.map((k) => [k, t[k]])) as Record<string, string>;

/** An ending as the page carries it; placeholders stay for the script to fill in. */
function endingView(ending: Ending, t: Messages) {
  return {
    title: ending.title ?? t.thanks_title,
    // rendered before piping: answers are put in escaped, never read as Markdown
    html: ending.body ? renderMarkdown(ending.body) : `<p>${t.thanks_body}</p>`,
    ...(ending.redirect_url ? { url: ending.redirect_url } : {}),
  };
}

export function endingViews(form: Form, t: Messages) {
  const views: Record<string, ReturnType<typeof endingView>> = {
    default: endingView(endingOf(form, "default"), t),
  };
  if (form.quiz.pass_ending) views.pass = endingView(endingOf(form, "pass"), t);
  if (form.quiz.fail_ending) views.fail = endingView(endingOf(form, "fail"), t);
  // endings chosen by condition or jump (SPEC §24), by id
  for (const ending of form.endings ?? []) views[ending.id] = endingView(ending, t);
  return views;
}

/** Each page's step label (the author's text), null for numbered or unnamed steps. */
export function stepLabels(fields: readonly Field[], pages: readonly number[]): (string | null)[] {
  const labels: (string | null)[] = [];
  fields.forEach((field, i) => {
    const page = pages[i]!;
    if (labels[page] !== undefined) return;
    labels[page] = field.type !== "scale" && typeof field.step === "string" ? field.step : null;
  });
  return labels;
}
