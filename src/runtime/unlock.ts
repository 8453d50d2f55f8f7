// A link or password form shown without its content (LockedPage.astro; SPEC §19): a chunk of its
// own, fetched by the locked page's script (locked.ts). The password (or the link's `access`
// token) fetches the page again, rendered with the form, and that form takes this one's place,
// with the form's script (form-script.ts) fetched then; it is sent with an anti-bot token, solved
// here as the form's submit solves its own. A prerendered page on a static host asks the API's
// server for it (`api`, the page's FORMDOWN_BASE_URL), which renders it.

import { AntiBot } from "./anti-bot.ts";
import { holdSubmit } from "./hold.ts";

interface Locked {
  slug: string;
  t: Record<string, string>;
  /** Where the API is served when it is not the page's own origin (a static host), else "". */
  api?: string;
  turnstileSiteKey?: string;
  turnstileScript?: string;
}

export function unlock(element: HTMLElement): void {
  const def = JSON.parse(element.querySelector("#fd-def")!.textContent!) as Locked;
  const api = def.api ?? "";
  const page = `${api}${location.pathname}${location.search}`;
  const status = element.querySelector<HTMLElement>(".fd-status");
  const form = element.querySelector<HTMLFormElement>("form.fd-unlock");
  // a link form: the server already rendered it if the token was right; a static page asks the API
  if (!form) {
    if (api && new URLSearchParams(location.search).has("access")) void swap(element, page, {}, "");
    return;
  }
  // each password attempt costs an anti-bot token (SPEC §23): solved, spent, and solved again
  const antiBot = new AntiBot(
    {
      humanness: true,
      apiBase: api,
      turnstileSiteKey: def.turnstileSiteKey ?? null,
      turnstileScript: def.turnstileScript ?? "",
    },
    element.querySelector<HTMLElement>("[data-captcha]")!,
  );
  form.addEventListener("input", () => antiBot.prepare(), { once: true });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = element.querySelector<HTMLInputElement>("#fd-password")!.value;
    status!.classList.remove("fd-bad");
    if (antiBot.usesAltcha) status!.textContent = def.t.verifying ?? "";
    const token = (await antiBot.token().catch(() => null)) ?? "";
    antiBot.renew();
    const headers = { "x-formdown-access": password, "x-formdown-antibot": token };
    if (await swap(element, page, headers, api, password)) return;
    status!.textContent = def.t.denied ?? "";
    status!.classList.add("fd-bad");
  });
}

async function swap(
  element: HTMLElement,
  page: string,
  headers: Record<string, string>,
  api: string,
  password?: string,
): Promise<boolean> {
  const res = await fetch(page, { headers }).catch(() => null);
  const html = res?.ok ? await res.text() : "";
  const next = new DOMParser().parseFromString(html, "text/html").querySelector("formdown-form");
  if (!next || next.hasAttribute("data-locked")) return false;
  const unlocked = document.importNode(next, true) as HTMLElement;
  // the server rendered it for its own origin: its API calls go there from this page too
  const own = unlocked.querySelector("#fd-def");
  if (own && api) {
    const shown = JSON.parse(own.textContent!) as { apiBase?: string };
    own.textContent = JSON.stringify({ ...shown, apiBase: shown.apiBase || api });
  }
  if (password !== undefined)
    unlocked.querySelector<HTMLInputElement>("#fd-password")!.value = password;
  // a Submit before the form's own script has come is held for it: the native submit would send
  // the answers, and the password, in the address
  const release = holdSubmit(unlocked);
  element.replaceWith(unlocked);
  // the form's own script: the element starts once it is defined (not before this one is gone,
  // which would start too)
  await import("./form-script.ts");
  release();
  return true;
}
