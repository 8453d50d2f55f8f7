import type { Field } from "../core/field-schema.ts";

/** Reads the current answers from the page's controls, in the shape the API stores. */
export function collect(
  root: HTMLElement,
  fields: readonly Field[],
  uploads: Map<string, string>,
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const field of fields) {
    const box = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(field.id)}"]`);
    if (!box) continue;
    const value = read(box, field, uploads);
    if (value !== undefined) answers[field.id] = value;
  }
  return answers;
}

function read(box: HTMLElement, field: Field, uploads: Map<string, string>): unknown {
  const checked = [...box.querySelectorAll<HTMLInputElement>("input:checked")];
  switch (field.type) {
    case "statement":
      return undefined;
    case "checkbox":
      return checked.length ? checked.map((i) => i.value) : undefined;
    case "radio":
    case "yes_no":
      return checked[0]?.value;
    case "rating":
    case "scale":
    case "nps":
      return checked[0] ? Number(checked[0].value) : undefined;
    case "matrix": {
      const rows: Record<string, string> = {};
      for (const input of checked) rows[input.dataset.row!] = input.value;
      return Object.keys(rows).length ? rows : undefined;
    }
    case "ranking": {
      // answered as soon as the page loads (seed rule 7); `required` insists on a deliberate reorder
      const list = box.querySelector<HTMLElement>("[data-ranking]")!;
      if (field.required && !list.dataset.touched) return undefined;
      return [...list.querySelectorAll<HTMLElement>("li")].map((li) => li.dataset.value!);
    }
    case "file":
    case "image":
      return uploads.get(field.id);
    case "number": {
      const input = box.querySelector<HTMLInputElement>("input")!;
      return input.value === "" ? undefined : Number(input.value);
    }
    default: {
      const control = box.querySelector<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
        "input, textarea, select",
      );
      return control && control.value !== "" ? control.value : undefined;
    }
  }
}
