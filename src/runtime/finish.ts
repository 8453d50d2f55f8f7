// After a successful submit: the ending the API named, with answers piped in (escaped for the
// Markdown's HTML, percent-encoded in a redirect), and a quiz's score and per-question feedback.
import type { Field } from "../core/field-schema.ts";
import { escapeHtml } from "../core/html.ts";
import { type PipeValues, pipe } from "../core/piping.ts";
import type { Definition } from "./definition.ts";
import { post } from "./frame.ts";
import type { Tr } from "./messages.ts";
import { setProgress } from "./page-view.ts";
import type { Feedback, Score, SubmitAnswer } from "./send.ts";

/** The form gives way to its ending (and a quiz's score) once the API stored the answers. */
export function showDone(
  root: HTMLElement,
  def: Definition,
  answer: SubmitAnswer,
  values: PipeValues,
  tr: Tr,
): void {
  root.querySelector<HTMLFormElement>("form")!.hidden = true;
  setProgress(root, 1, def.pageCount, def.pageCount);
  const done = root.querySelector<HTMLElement>(".fd-done")!;
  done.hidden = false;
  if (answer.score && def.showResults)
    showScore(done, answer.score, answer.feedback, def.fields, values, tr, def.locale);
  const { endings } = def;
  showEnding(done, endings[answer.ending ?? "default"] ?? endings.default!, values, post);
  post?.({ formdown: "submitted" });
  done.focus();
}

/** An ending as the page carries it: title text, body HTML (rendered Markdown), redirect. */
export interface EndingView {
  title: string;
  html: string;
  url?: string;
}

export function showEnding(
  done: HTMLElement,
  ending: EndingView,
  values: PipeValues,
  post: ((message: unknown, to?: string) => void) | null,
): void {
  done.querySelector("h2")!.textContent = pipe(ending.title, values);
  done.querySelector(".fd-ending")!.innerHTML = pipe(ending.html, values, escapeHtml);
  const url = ending.url && pipe(ending.url, values, encodeURIComponent);
  if (!url || !/^https?:\/\//i.test(url)) return;
  // made here, not in the markup: a link without an address is one crawlers cannot follow
  const link = done.querySelector<HTMLAnchorElement>(".fd-continue") ?? document.createElement("a");
  link.className = "fd-continue";
  link.target = "_top";
  link.textContent = done.dataset.redirecting ?? "";
  link.href = url;
  done.append(link);
  // in an embed the page around the form navigates (embed.js), not the little frame; the address
  // carries answers, so only a page of its own site is told it (any site may frame a form), and
  // the frame moves the page itself where the browser lets it (test/pages/embed-redirect.test.ts)
  if (!post) {
    location.assign(url);
    return;
  }
  post({ formdown: "redirect", url }, new URL(url).origin);
  try {
    top!.location.href = url;
  } catch {
    // refused: the link above still goes there
  }
}

export function showScore(
  done: HTMLElement,
  score: Score,
  feedback: Feedback[] | undefined,
  fields: readonly Field[],
  values: PipeValues,
  tr: Tr,
  locale: string,
): void {
  const p = done.querySelector<HTMLElement>(".fd-score")!;
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const verdict = score.passed === null ? "" : ` — ${tr(score.passed ? "passed" : "not_passed")}`;
  p.hidden = false;
  p.textContent =
    tr("score", {
      points: score.points,
      max: score.max_points,
      percent: percent.format(score.percent / 100),
    }) + verdict;
  const list = done.querySelector<HTMLElement>(".fd-feedback")!;
  for (const item of feedback ?? []) {
    const field = fields.find((f) => f.id === item.field);
    const li = document.createElement("li");
    li.className = item.correct ? "fd-right" : "fd-wrong";
    const head = document.createElement("strong");
    head.textContent = `${tr(item.correct ? "right" : "wrong")}: `;
    li.append(head, pipe(field?.label ?? item.field, values));
    if (item.explanation) {
      const why = document.createElement("p");
      why.textContent = item.explanation;
      li.append(why);
    }
    list.append(li);
  }
  list.hidden = !feedback?.length;
}
