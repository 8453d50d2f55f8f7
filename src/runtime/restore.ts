// Answers kept in the browser for one form, so a reload (or a closed tab) does not lose them.
// Cleared after a successful submit. Storage can be refused (private modes, some iframes): then
// the page simply works without it.
import type { Field } from "../core/field-schema.ts";
import type { FormdownForm } from "./form-element.ts";

export interface Saved {
  /** The answers, in the API's shape. */
  a: Record<string, unknown>;
  /** When the respondent started (ms since the epoch). */
  s?: number;
  /** Index of the furthest field reached (progress beacons already sent). */
  f?: number;
  /** The partial response's resume token (SPEC §25; partial.ts). */
  r?: string | undefined;
  /** `r` came from a resume link's address and is claimed at the next save (partial.ts). */
  c?: boolean;
}

/** `formdown:@<handler>/<slug>` (Definition.keep). */
const key = (keep: string) => `formdown:${keep}`;

export function load(keep: string): Saved | null {
  try {
    return JSON.parse(localStorage.getItem(key(keep)) ?? "null") as Saved | null;
  } catch {
    return null;
  }
}

export function save(keep: string, saved: Saved | null): void {
  try {
    if (saved) localStorage.setItem(key(keep), JSON.stringify(saved));
    else localStorage.removeItem(key(keep));
  } catch {
    // no storage: nothing to keep
  }
}

/**
 * The answers a page starts with: what the respondent answered before (kept in this browser),
 * else visible questions prefilled by ?f.<id>= (SPEC §25) unless the field says prefill: false.
 * (`params` is frame.ts', passed in: imported here, the bundler made frame.ts a chunk of its own.)
 */
export function restoreKept(form: FormdownForm, params: URLSearchParams): void {
  const { def } = form;
  const saved = load(def.keep);
  if (saved?.a) form.saved = saved;
  const pre: Saved["a"] = {};
  for (const f of def.fields) {
    const v = params.getAll(`f.${f.id}`);
    if (v.length && f.prefill !== false) pre[f.id] = f.type === "checkbox" ? v : v[0];
  }
  restore(form, def.fields, { ...pre, ...saved?.a });
}

/** Puts saved answers back into the page's controls (uploaded files are not kept). */
export function restore(root: HTMLElement, fields: readonly Field[], answers: Saved["a"]) {
  for (const field of fields) {
    const v = answers[field.id];
    const box = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(field.id)}"]`);
    if (v === undefined || !box) continue;
    if (field.type === "ranking") {
      const list = box.querySelector<HTMLElement>("[data-ranking]")!;
      for (const value of v as string[])
        for (const li of list.querySelectorAll<HTMLElement>("li"))
          if (li.dataset.value === value) list.append(li);
      // (ranking.ts sees the new order and updates the Up/Down buttons)
      list.dataset.touched = "1";
      continue;
    }
    for (const input of box.querySelectorAll<HTMLInputElement>(
      "input[type=radio],input[type=checkbox]",
    )) {
      const want = input.dataset.row ? (v as Record<string, unknown>)[input.dataset.row] : v;
      input.checked = Array.isArray(want)
        ? want.includes(input.value)
        : String(want) === input.value;
    }
    const control = box.querySelector<HTMLInputElement>(
      "input:not([type=radio],[type=checkbox],[type=file]),textarea,select",
    );
    if (control) control.value = String(v);
  }
}
