// Origins given in the environment (FORMDOWN_BASE_URL, FORMDOWN_PUBLIC_BASE_URL, FORMDOWN_URL),
// as operators write them (SPEC §17): `forms.example.com` means https, `localhost:4321` and
// `127.0.0.1` mean http, a trailing slash is dropped (pages would otherwise post to `//api/…`).
// Pure: the server's config, the CLI and the pages build share it.

/**
 * The normalised URL (no trailing slash), `undefined` when unset or empty. Throws one line
 * naming the variable when the value cannot be a URL.
 */
export function normaliseBaseUrl(name: string, value: string | undefined): string | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  const local = /^(localhost|127\.|\[::1\])/i.test(raw);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)
    ? raw
    : `${local ? "http" : "https"}://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`${name}: "${raw}" is not a URL (e.g. https://forms.example.com).`);
  }
  if (!/^https?:$/.test(url.protocol) || !url.hostname || url.search || url.hash)
    throw new Error(
      `${name}: "${raw}" must be an http(s) origin (e.g. https://forms.example.com).`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** True when links built on this origin would only work on the machine itself. */
export const isLocalOrigin = (url: string) =>
  /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i.test(url);
