// Uploads, in their own chunk: only a page with a file field ever fetches it.
import type { Field } from "../core/field-schema.ts";
import type { AntiBot } from "./anti-bot.ts";
import type { FormdownForm } from "./form-element.ts";
import { params } from "./frame.ts";
import type { Tr } from "./messages.ts";
import { showErrors } from "./ui.ts";

/** A file input changed: its file (if any) uploaded, its URL kept as the field's answer. */
export async function upload(form: FormdownForm, input: HTMLInputElement): Promise<void> {
  const field = form.def.fields.find((f) => f.id === input.name)!;
  form.uploads.delete(field.id);
  if (!input.files?.[0]) return;
  const access = form.access();
  const antiBot = await form.antiBot()?.catch(() => null);
  const parts = await uploadParts(access, antiBot ?? null, form.def.preview);
  const url = await uploadFile(form, form.url("/uploads"), field, input, form.tr, parts);
  if (url) form.uploads.set(field.id, url);
}

/**
 * What an upload carries before its file (SPEC §19): the password or link token, and an
 * anti-bot token of its own — the upload spends it, so the next upload or the submit gets a
 * fresh one.
 */
async function uploadParts(
  access: string | undefined,
  antiBot: AntiBot | null,
  /** A draft's preview token: a draft takes uploads only from its preview page (SPEC §23). */
  preview?: string | null,
): Promise<Record<string, string>> {
  const parts: Record<string, string> = {};
  if (access !== undefined) parts.access = access;
  if (preview) parts.preview = preview;
  // a personal link (SPEC §25): an invite-only form takes files only with it
  const invite = params.get("invite");
  if (invite) parts.invite = invite;
  if (!antiBot) return parts;
  const token = antiBot.token();
  antiBot.renew();
  const value = await token.catch(() => null);
  if (value) parts.turnstile_token = value;
  return parts;
}

/** Uploads a chosen file with progress; checks type and size first. Returns its URL or null. */
function uploadFile(
  root: HTMLElement,
  url: string,
  field: Field,
  input: HTMLInputElement,
  tr: Tr,
  /** `access` and `turnstile_token`: the server wants them before the file. */
  parts: Record<string, string> = {},
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
  if (file.size > limit) return fail(tr("err_size", { mb: input.dataset.maxMb! }));
  if (!fits) return fail(tr("err_type", { types: accept.join(", ") }));
  showErrors(root, [field], []);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const data = new FormData();
    data.set("field", field.id);
    for (const [name, value] of Object.entries(parts)) data.set(name, value);
    data.set("file", file);
    progress.hidden = false;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress.value = Math.round((e.loaded / e.total) * 100);
    };
    xhr.onload = () => {
      progress.hidden = true;
      const json = JSON.parse(xhr.responseText || "{}") as { url?: string; error?: string };
      if (xhr.status === 201 && json.url) return resolve(json.url);
      showErrors(root, [field], [{ field: field.id, message: json.error ?? tr("err_upload") }]);
      resolve(null);
    };
    xhr.onerror = () => {
      progress.hidden = true;
      showErrors(root, [field], [{ field: field.id, message: tr("err_upload") }]);
      resolve(null);
    };
    xhr.open("POST", url);
    xhr.send(data);
  });
}
