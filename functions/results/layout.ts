// The pages of `/results` (SPEC §26): plain server-rendered HTML with the respondent pages'
// design (src/styles/form.css: the same colours, type, cards and controls), no script at all.
import { escapeHtml as e } from "../../src/core/html.ts";

const CSS = `:root{--fd-primary:#0f172a;--fd-on-primary:#fff;--fd-text:#0f172a;--fd-muted:#5b6474;--fd-line:#d8dde6;--fd-bg:#f4f6f9;--fd-card:#fff;--fd-error:#b42318;--fd-radius:12px;color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:var(--fd-text);background:var(--fd-bg)}
*{box-sizing:border-box}body{margin:0}
.fd-shell{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.fd-card{background:var(--fd-card);border:1px solid var(--fd-line);border-radius:var(--fd-radius);padding:1.5rem;box-shadow:0 1px 2px rgb(16 24 40/6%);margin-bottom:1.25rem}
@media (max-width:479px){.fd-shell{padding:.75rem .75rem 2rem}.fd-card{padding:1rem}}
header.fd-top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;margin-bottom:1rem}
header.fd-top a{color:inherit;font-weight:600}
.fd-who{color:var(--fd-muted);font-size:.95rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}h2{font-size:1.2rem;margin:0 0 .75rem}
p{margin:0 0 .75rem}.fd-muted{color:var(--fd-muted)}
a{color:var(--fd-primary)}
label{display:block;font-weight:600;margin-bottom:.35rem}
input,select{width:100%;font:inherit;color:inherit;padding:.6rem .75rem;border:1px solid var(--fd-line);border-radius:8px;background:#fff;min-height:44px}
button,.fd-button{display:inline-flex;align-items:center;justify-content:center;font:inherit;font-weight:600;min-height:44px;padding:.55rem 1.1rem;border-radius:8px;border:1px solid var(--fd-primary);background:var(--fd-primary);color:var(--fd-on-primary);text-decoration:none;cursor:pointer}
.fd-secondary{background:#fff;color:var(--fd-primary)}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible,.fd-scroll:focus-visible{outline:3px solid color-mix(in srgb,var(--fd-primary) 55%,transparent);outline-offset:2px}
.fd-row{display:grid;gap:.75rem;margin-bottom:1rem}
@media (min-width:640px){.fd-row.fd-filter{grid-template-columns:2fr 1.5fr 2fr auto;align-items:end}}
.fd-actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:0}
.fd-scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.95rem}
caption{text-align:left;font-weight:600;padding-bottom:.5rem}
th,td{text-align:left;vertical-align:top;padding:.5rem .6rem;border-bottom:1px solid var(--fd-line)}
th{font-weight:600}
.fd-list{list-style:none;margin:0;padding:0}.fd-list li{padding:.6rem 0;border-bottom:1px solid var(--fd-line)}
.fd-error{color:var(--fd-error);font-weight:600}
.fd-pages{display:flex;gap:1rem;margin-top:1rem}`;

export interface PageOptions {
  title: string;
  /** Who is signed in, and the session's token for the sign-out form (none: signed out). */
  who?: { name: string; role: string; csrf: string };
}

/** One page: the header (who, sign out), the main content, nothing else. */
export function page(options: PageOptions, main: string): string {
  const who = options.who
    ? `<form method="post" action="/results/sign-out" class="fd-actions"><span class="fd-who">${e(options.who.name)} · ${e(options.who.role)}</span><input type="hidden" name="csrf" value="${e(options.who.csrf)}"><button class="fd-secondary" type="submit">Sign out</button></form>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(options.title)} · Formdown results</title><style>${CSS}</style></head><body><div class="fd-shell"><header class="fd-top"><a href="/results">Formdown results</a>${who}</header><main>${main}</main></div></body></html>`;
}

/** A card with a heading. */
export const card = (heading: string, body: string, level = 2) =>
  `<section class="fd-card"><h${level}>${e(heading)}</h${level}>${body}</section>`;

export const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  // same-origin, not no-referrer: with no-referrer a form post says `Origin: null`
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export { e };
