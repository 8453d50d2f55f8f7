// Sending the answers, a chunk of its own that form-element.ts fetches at the first answer (so it
// is here by Submit): the submit's body and retries (send.ts), the anti-bot token, what the page
// says when the API refuses, and the ending once it stored them (finish.ts, another chunk).
import type { FormdownForm } from "./form-element.ts";
import { params } from "./frame.ts";
import { pageOf } from "./page-view.ts";
import { save } from "./restore.ts";
import { send } from "./send.ts";

/** The body of a submit, without the anti-bot token. */
function submitBody(form: FormdownForm): Record<string, unknown> {
  const { def, saved } = form;
  const body: Record<string, unknown> = { fields: form.answers() };
  // the language the respondent read (SPEC §20); the answers are the form's own options anyway
  if (def.locale) body.lang = def.locale;
  // the API validates against the version this page was built from, or answers form_changed
  if (typeof def.version === "number") body.version = def.version;
  // (an empty one is as good as none: the API keeps the given ones)
  if (def.hidden.length) body.hidden = form.hiddenValues();
  if (def.preview) body.preview = def.preview;
  // a personal link (SPEC §25): the server spends it with the answers
  if (params.get("invite")) body.invite = params.get("invite");
  const access = form.access();
  if (access !== undefined) body.access = access;
  if (saved.r) body.resume = saved.r;
  body.seconds = Math.round((Date.now() - (saved.s ?? Date.now())) / 1000);
  return body;
}

/** What the status line says for an error code the API answered. */
const SAYS: Record<string, string> = {
  access_denied: "denied",
  already_answered: "closed",
  form_closed: "closed",
  rate_limited: "too_many",
  validation_failed: "check",
};

export async function submit(form: FormdownForm): Promise<void> {
  const { tr, def } = form;
  const button = form.querySelector<HTMLButtonElement>("[data-submit]")!;
  // a second Submit while the first is on its way adds nothing
  if (button.disabled) return;
  const status = form.querySelector<HTMLElement>(".fd-status")!;
  const bad = (key: string) => {
    status.textContent = tr(key);
    status.classList.add("fd-bad");
  };
  if (form.sending.size) {
    status.textContent = tr("uploading");
    await Promise.all(form.sending);
  }
  if (!form.check(false)) {
    form.render();
    bad("check");
    form
      .querySelector<HTMLElement>(".fd-invalid input, .fd-invalid textarea, .fd-invalid select")
      ?.focus();
    return;
  }
  button.disabled = true;
  status.classList.remove("fd-bad");
  const altcha = def.humanness && !def.turnstileSiteKey;
  status.textContent = tr(altcha ? "verifying" : "sending");
  const url = form.url("/submit");
  try {
    const body = submitBody(form);
    const antiBot = await form.antiBot();
    const token = await antiBot?.token();
    if (token !== undefined) body.turnstile_token = token;
    status.textContent = tr("sending");
    let answer = await send(url, form.key, body);
    if (answer.code === "captcha_failed" && antiBot?.usesAltcha) {
      // an expired challenge: solve a fresh one and try once more
      antiBot.renew();
      body.turnstile_token = await antiBot.token();
      answer = await send(url, form.key, body);
    }
    if (answer.status === 201) {
      const values = { ...form.values(), score: answer.score ?? null };
      save(def.keep, null);
      return (await form.finish()).showDone(form, def, answer, values, tr);
    }
    // the server spends the anti-bot token once the form is open and its version known (access
    // is checked after it, SPEC §19): get a fresh one
    if (!["form_closed", "form_changed"].includes(answer.code ?? "")) antiBot?.renew();
    // answers about fields this page does not have: the form changed under it (SPEC §16)
    const unknown = answer.details?.some((d) => Number.isNaN(pageOf(form, d.field)));
    if (answer.code === "form_changed" || unknown) return bad("changed");
    if (answer.details?.length) {
      form.show(answer.details);
      // the first problem may sit on another page of a multi-page form
      const page = pageOf(form, answer.details[0]!.field);
      if (!Number.isNaN(page)) form.page = page;
      form.render();
    }
    bad(SAYS[answer.code ?? ""] ?? "failed");
  } catch {
    bad("offline");
  } finally {
    button.disabled = false;
  }
}
