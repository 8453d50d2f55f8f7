// Drop-off and views (SPEC §13, §25): what the page reports about a respondent's way through the
// form, never with an answer (migration 20261124000300 says how stats count them).
import type { Field } from "../core/field-schema.ts";
import type { FormdownForm } from "./form-element.ts";
import { save } from "./restore.ts";

/** Reports an event of the page (`view`, `start`, `progress`); lost if the network is. */
export function beacon(
  form: FormdownForm,
  body: { type: string; field?: string; invite?: string | undefined },
): void {
  void fetch(form.url("/events"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  }).catch(() => {});
}

/**
 * A field is reached when it (or a later one) is focused or answered, or its page is shown. Each
 * answerable field the respondent reaches is reported once, in form order (`shown`: the fields on
 * the respondent's path).
 */
export function reachAt(
  form: FormdownForm,
  target: HTMLElement | null,
  shown: () => readonly Field[],
): void {
  const id = target?.closest<HTMLElement>("[data-field]")?.dataset.field;
  const { def, saved } = form;
  const index = def.fields.findIndex((f) => f.id === id);
  if (index < 0) return;
  const visible = shown();
  const from = saved.f ?? -1;
  def.fields.forEach((field, i) => {
    if (i > from && i <= index && field.type !== "statement" && visible.includes(field))
      beacon(form, { type: "progress", field: field.id });
  });
  if (index > from) saved.f = index;
  save(def.keep, saved);
}
