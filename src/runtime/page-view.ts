// What the page shows of its state: which pages have visible fields, piped texts, the step line
// and the progress bar. Plain DOM functions over the server-rendered markup, no state of their own.
import { type PipeValues, pipe } from "../core/piping.ts";
import type { Tr } from "./messages.ts";

/** The pages (their numbers, in order) that hold at least one visible field. */
export function pagesWithFields(root: ParentNode, visible: Set<string>): number[] {
  const pages = new Set<number>();
  for (const box of root.querySelectorAll<HTMLElement>("[data-field]")) {
    if (visible.has(box.dataset.field!)) pages.add(Number(box.dataset.page));
  }
  return [...pages].sort((a, b) => a - b);
}

/** The page a field sits on (NaN for an id the page does not show). */
export function pageOf(root: ParentNode, id: string): number {
  return Number(root.querySelector<HTMLElement>(`[data-field="${CSS.escape(id)}"]`)?.dataset.page);
}

/** Answers piped into labels and placeholders (as text), and each rating's text value. */
export function fillPipes(root: ParentNode, values: PipeValues) {
  for (const el of root.querySelectorAll<HTMLElement>("[data-pipe]"))
    el.textContent = pipe(el.dataset.pipe!, values);
  for (const el of root.querySelectorAll<HTMLInputElement>("[data-pipe-placeholder]"))
    el.placeholder = pipe(el.dataset.pipePlaceholder!, values);
  for (const el of root.querySelectorAll<HTMLElement>("[data-stars]"))
    el.textContent =
      root.querySelector<HTMLElement>(`[name="${el.dataset.stars}"]:checked`)?.dataset.text ?? "";
}

/** "Step 2 of 3 · About you" (a survey: "2 of 8"), hidden on a single page. */
export function showStep(
  root: ParentNode,
  view: { at: number; total: number; label: string | null; survey: boolean },
  tr: Tr,
  locale: string,
) {
  const step = root.querySelector<HTMLElement>("[data-step]");
  if (!step) return;
  const num = new Intl.NumberFormat(locale);
  step.hidden = view.total < 2;
  step.textContent =
    tr(view.survey ? "n_of" : "step_of", {
      n: num.format(view.at + 1),
      total: num.format(view.total),
    }) + (view.label ? ` · ${view.label}` : "");
}

/** The bar shows the share of pages done: empty on the first, full after the submit. */
export function setProgress(root: ParentNode, share: number, done: number, total: number) {
  const bar = root.querySelector<HTMLElement>(".fd-progressbar");
  bar?.style.setProperty("--fd-progress", `${Math.round(share * 100)}%`);
  bar?.setAttribute("aria-valuenow", String(done));
  bar?.setAttribute("aria-valuemax", String(total));
}
