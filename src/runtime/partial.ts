// Partial responses (SPEC §25), a chunk only pages of forms with `settings.partial` load: the
// answers go to the server at each page, under a resume token kept with the answers in this
// browser (restore.ts). Offline, the browser's own storage keeps them and the next page sends
// them all. `?resume=<token>` continues a partial on another device.
import type { Definition } from "./definition.ts";
import { params } from "./frame.ts";
import { type Saved, save } from "./restore.ts";

export interface Resumed {
  fields: Record<string, unknown>;
  page: number | null;
}

/** The partial this page continues (its link's token, or the one this browser kept), if any. */
export async function resumed(def: Definition, url: string, saved: Saved): Promise<Resumed | null> {
  const token = params.get("resume") ?? saved.r;
  if (!token) return null;
  const res = await fetch(`${url}/${encodeURIComponent(token)}`).catch(() => null);
  if (!res?.ok) return null;
  saved.r = token;
  save(def.slug, saved);
  return (await res.json()) as Resumed;
}

/** Sends the answers so far; keeps the token the server answers. */
export async function savePartial(
  def: Definition,
  url: string,
  fields: Record<string, unknown>,
  page: number,
  saved: Saved,
  access: unknown,
  /** A password form's save tries the password: the server wants an anti-bot token with it. */
  turnstile_token?: string | null,
): Promise<void> {
  const body = { fields, page, lang: def.locale, resume: saved.r, access, turnstile_token };
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (!res?.ok) return;
  saved.r = ((await res.json()) as { resume: string }).resume;
  save(def.slug, saved);
}
