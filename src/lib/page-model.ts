import { publicForm } from "../core/public-form.ts";
import type { Form } from "../core/schema.ts";
import { formLanguages, inLanguage, type Translations } from "../core/translation.ts";

export const TURNSTILE_SCRIPT =
  "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/** What a form page needs, computed once; the same for prerendered and on-demand pages. */
export interface PageModel {
  form: Form;
  handler: string;
  /** Where the page sends submits and beacons (may be another origin). */
  apiBase: string;
  status: "live" | "closed";
  access: "public" | "link" | "password" | "closed" | "invite";
  /** Turnstile site key in production; absent means the self-hosted ALTCHA. */
  turnstileSiteKey: string | undefined;
  /** The Turnstile widget script (production). */
  turnstileScript: string;
  /** The form version the page is built from (SPEC §16); unknown for pages built from files. */
  version?: number | undefined;
  /**
   * The form's id, when the page is rendered from the database: its API calls name the form by
   * it, which holds through renames (SPEC §22). A page built from files knows only a slug.
   */
  id?: string | undefined;
  /** A page built from files: the commit it was built at, sent with its API calls instead. */
  built?: string | undefined;
  /** On a preview page: the preview token its submits carry, which makes them test answers. */
  preview?: string | undefined;
  /** A link or password form shown without its content until the respondent unlocks it. */
  locked?: boolean;
  /** Field id → {option as in the form → label shown}: a translated page's choices (SPEC §20). */
  choices: Record<string, Record<string, string>>;
  /** A form in more than one language: this page's, every one, and where each page lives. */
  languages?: PageLanguages | undefined;
}

export interface PageLanguages {
  /** This page's language. */
  lang: string;
  /** Every language of the form, its own first (the page at the form's own URL). */
  all: string[];
  /** The form's own page, `/@<handler>/<slug>`; each translation is at `<path>/<lang>`. */
  path: string;
  /** Before `path` in `hreflang` links: the public origin, "" when a build does not know it. */
  origin: string;
}

/** Where a language's page of the form lives. */
export const languagePath = (l: Pick<PageLanguages, "all" | "path">, lang: string) =>
  lang === l.all[0] ? l.path : `${l.path}/${lang}`;

interface LanguageOptions {
  /** The page's language: the form's own (default) or one of its translations. */
  lang?: string | undefined;
  /** The form's translations (language → strings). */
  translations?: Translations | null | undefined;
  /** The public origin, for absolute `hreflang` links. */
  origin?: string | undefined;
}

export function pageModel(
  form: Form,
  handler: string,
  options: Partial<Omit<PageModel, "form" | "handler" | "choices" | "languages">> &
    LanguageOptions = {},
): PageModel {
  const all = formLanguages(form, options.translations);
  const lang = options.lang && all.includes(options.lang) ? options.lang : form.locale;
  const shown = inLanguage(publicForm(form), lang, options.translations);
  const closesAt = form.settings.closes_at;
  const closed =
    form.access.mode === "closed" || (closesAt !== undefined && Date.parse(closesAt) <= Date.now());
  return {
    form: shown.form,
    handler,
    choices: shown.choices,
    ...(all.length > 1
      ? {
          languages: { lang, all, path: `/@${handler}/${form.slug}`, origin: options.origin ?? "" },
        }
      : {}),
    apiBase: options.apiBase ?? "",
    status: options.status ?? (closed ? "closed" : "live"),
    access: options.access ?? form.access.mode,
    turnstileSiteKey: options.turnstileSiteKey,
    turnstileScript: options.turnstileScript ?? TURNSTILE_SCRIPT,
    version: options.version,
    ...(options.id ? { id: options.id } : {}),
    ...(options.built ? { built: options.built } : {}),
    ...(options.preview ? { preview: options.preview } : {}),
    ...(options.locked ? { locked: true } : {}),
  };
}

/** Readable text on the brand color: black or white, whichever contrasts more (WCAG luminance). */
export function textOn(hex: string): string {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (lum + 0.05) > (lum + 0.05) / 0.05 ? "#ffffff" : "#111111";
}

/** JSON for a `<script type="application/json">` block: `<` escaped so it cannot close the tag. */
export const safeJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** An 11-character YouTube id from a full URL or an id. */
export function youtubeId(url: string): string | null {
  if (/^[A-Za-z0-9_-]{11}$/.test(url)) return url;
  try {
    const u = new URL(url);
    if (u.hostname.endsWith("youtu.be")) return u.pathname.slice(1, 12) || null;
    const v = u.searchParams.get("v");
    if (v) return v.slice(0, 11);
    const m = /\/(?:embed|shorts|live)\/([A-Za-z0-9_-]{11})/.exec(u.pathname);
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}
