import type { Field } from "../core/field-schema.ts";

/** Puts each problem next to its field (and clears the others). */
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
    slot.textContent = problem
      ? `${field.label ?? field.id} ${problem.message}.`.replace(/\.\.$/, ".")
      : "";
    for (const control of box.querySelectorAll("input, textarea, select")) {
      if (problem) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
  }
}

/** Uploads a chosen file with progress; checks type and size first. Returns its URL or null. */
export function uploadFile(
  root: HTMLElement,
  url: string,
  field: Field,
  input: HTMLInputElement,
): Promise<string | null> {
  const file = input.files![0]!;
  const box = input.closest<HTMLElement>("[data-field]")!;
  const progress = box.querySelector<HTMLProgressElement>("progress")!;
  const limit = Number(input.dataset.maxMb) * 1024 * 1024;
  const accept = input.accept ? input.accept.split(",") : [];
  const fits =
    accept.length === 0 ||
    accept.some((a) => (a.endsWith("/*") ? file.type.startsWith(a.slice(0, -1)) : a === file.type));
  const fail = (message: string) => {
    showErrors(root, [field], [{ field: field.id, message }]);
    input.value = "";
    return Promise.resolve(null);
  };
  if (file.size > limit) return fail(`must be at most ${input.dataset.maxMb} MB`);
  if (!fits) return fail(`must be one of: ${accept.join(", ")}`);
  showErrors(root, [field], []);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const data = new FormData();
    data.set("field", field.id);
    data.set("file", file);
    progress.hidden = false;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress.value = Math.round((e.loaded / e.total) * 100);
    };
    xhr.onload = () => {
      progress.hidden = true;
      const json = JSON.parse(xhr.responseText || "{}") as { url?: string; error?: string };
      if (xhr.status === 201 && json.url) return resolve(json.url);
      showErrors(
        root,
        [field],
        [{ field: field.id, message: json.error ?? "could not be uploaded" }],
      );
      resolve(null);
    };
    xhr.onerror = () => {
      progress.hidden = true;
      showErrors(
        root,
        [field],
        [{ field: field.id, message: "could not be uploaded; check your connection" }],
      );
      resolve(null);
    };
    xhr.open("POST", url);
    xhr.send(data);
  });
}
