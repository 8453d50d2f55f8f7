// The few pages only `formdown dev` serves: the index of the files, a file's errors, and the
// script that reloads a page when a file changes. Every author string is escaped.
import { formatFormFileError } from "../../../src/core/form-file.ts";
import type { DevFile } from "./dev-forms.ts";

export const RELOAD_PATH = "/__formdown/events";
export const SCRIPT_PATH = "/__formdown/dev.js";

/** Served as a file (the pages' CSP allows only this origin's scripts, never inline ones). */
export const DEV_SCRIPT = `// formdown dev: reload when a form file changes
new EventSource(${JSON.stringify(RELOAD_PATH)}).addEventListener("reload", () => location.reload());
`;

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><script src="${SCRIPT_PATH}" defer></script></head><body style="font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem">${body}</body></html>`;

export const devHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'self'; style-src 'unsafe-inline'; script-src 'self'",
};

/** A file that does not parse: its problems at file:line, instead of a blank page. */
export function errorPage(file: DevFile): string {
  const items = file.errors.map((e) => `<li><code>${esc(formatFormFileError(e))}</code></li>`);
  return page(
    `${file.file}: not valid`,
    `<h1 style="color:#b91c1c">${esc(file.file)} is not valid</h1><p>Fix the file and save: this page reloads by itself.</p><ul id="formdown-errors">${items.join("")}</ul>`,
  );
}

/** The root of the dev server: every file, a link to its page or its errors. */
export function indexPage(files: DevFile[]): string {
  const rows = files.map((f) => {
    const link = f.handler && f.slug ? `/@${f.handler}/${f.slug}` : null;
    const state = f.errors.length > 0 ? `${f.errors.length} problem(s)` : "live";
    return `<li>${link ? `<a href="${esc(link)}">${esc(f.file)}</a>` : esc(f.file)} — ${state}</li>`;
  });
  return page(
    "formdown dev",
    `<h1>formdown dev</h1><p>Pages reload when a file is saved. Submissions go to a throwaway database.</p><ul>${rows.join("")}</ul>`,
  );
}
