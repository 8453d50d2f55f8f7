import type { Field } from "../core/field-schema.ts";

/** Puts each problem (already worded in the page's language) next to its field; clears the others. */
export function showErrors(
  root: HTMLElement,
  fields: readonly Field[],
  details: readonly { field: string; message: string }[],
): void {
  for (const field of fields) {
    const box = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(field.id)}"]`);
    const slot = box?.querySelector<HTMLElement>(".fd-error");
    if (!box || !slot) continue;
    const problem = details.find((d) => d.field === field.id);
    box.classList.toggle("fd-invalid", Boolean(problem));
    slot.hidden = !problem;
    slot.textContent = problem?.message ?? "";
    for (const control of box.querySelectorAll("input, textarea, select")) {
      if (problem) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
  }
}
