// Partial responses (SPEC §25), a chunk only pages of forms with `settings.partial` load: the
// answers go to the server at each page, under a resume token kept with the answers in this
// browser (restore.ts). Offline, the browser's own storage keeps them and the next page sends
// them all. `?resume=<token>` (the link the respondent is emailed once they give an address)
// continues a partial on another device.
import type { FormdownForm } from "./form-element.ts";
import { params } from "./frame.ts";
import { save } from "./restore.ts";

export interface Resumed {
  fields: Record<string, unknown>;
  page: number | null;
}

/** The partial this page continues (its link's token, or the one this browser kept), if any. */
export async function resumed(form: FormdownForm): Promise<Resumed | null> {
  const { def, saved } = form;
  const token = params.get("resume") ?? saved.r;
  if (!token) return null;
  const res = await fetch(form.url(`/partial/${encodeURIComponent(token)}`)).catch(() => null);
  if (!res?.ok) return null;
  // a token from the address is claimed at the first save (a new one replaces it): whoever
  // handed out the link, a stranger included, no longer reads what is answered here
  saved.c ||= token !== saved.r;
  saved.r = token;
  save(def.keep, saved);
  return (await res.json()) as Resumed;
}

/** Sends the answers so far, the respondent now on `page`; keeps the token the server answers. */
export async function savePartial(form: FormdownForm, page: number): Promise<void> {
  const { def, saved } = form;
  // an invite-only form's partial is saved with the personal link the page was opened with
  const invite = params.get("invite") ?? undefined;
  const fields = form.answers();
  // a password form's save tries the password: the server wants an anti-bot token with it (SPEC §23)
  const antiBot = def.access === "password" ? await form.antiBot() : null;
  const token = antiBot?.token();
  antiBot?.renew();
  const turnstile_token = token ? await token.catch(() => null) : undefined;
  const access = form.access();
  const body = {
    fields,
    page,
    lang: def.locale,
    resume: saved.r,
    claim: saved.c,
    access,
    invite,
    turnstile_token,
  };
  const res = await fetch(form.url("/partial"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (!res?.ok) return;
  saved.r = ((await res.json()) as { resume: string }).resume;
  saved.c = false;
  save(def.keep, saved);
}
