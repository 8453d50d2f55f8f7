// A renamed form file on a static host (SPEC §16): the embedded server answers a form's old URL
// with a 301 from its database; a static build only has the repository, so the renames of the
// form files (git's, oldest first) say where each old public path now lives.

const FORM_FILE = /^(@[a-z0-9][a-z0-9-]*)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** The form id (`@handler/slug`) of a path inside the forms folder; null for anything else (a translation file, another folder). */
export function formIdOf(path: string): string | null {
  const m = FORM_FILE.exec(path);
  return m ? `${m[1]}/${m[2]}` : null;
}

/**
 * Each earlier form id that no live form answers at, and the live form it now lives at:
 * renames are followed to their end (a → b, later b → c: a and b lead to c); a path a form
 * answers at again is not redirected, nor one whose form was removed since.
 */
export function formRedirects(
  renames: readonly (readonly [from: string, to: string])[],
  live: ReadonlySet<string>,
): Map<string, string> {
  const next = new Map<string, string>();
  // a later rename away from the same path wins (the path was taken again in between)
  for (const [from, to] of renames) if (from !== to) next.set(from, to);
  const out = new Map<string, string>();
  for (const from of [...next.keys()].sort()) {
    if (live.has(from)) continue;
    let at = from;
    // a guard against a cycle: a → b → a with neither live ends nowhere
    for (let i = 0; i < 100 && !live.has(at) && next.has(at); i++) at = next.get(at)!;
    if (live.has(at)) out.set(from, at);
  }
  return out;
}

/** The `_redirects` file Netlify and Cloudflare Pages read: the page and anything under it. */
export function redirectsFile(redirects: ReadonlyMap<string, string>): string {
  return [...redirects]
    .map(([from, to]) => `/${from} /${to} 301\n/${from}/* /${to}/:splat 301\n`)
    .join("");
}
