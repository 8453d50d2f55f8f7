// Values in messages are quoted short (SPEC §19): at most 200 characters of one, written without
// ever building the whole text, so a value that shares its parts (a YAML alias bomb) or is very
// long costs no more than what is shown.

export const QUOTE_MAX = 200;

/** `value` as JSON, cut at `max` characters with an ellipsis; `undefined` reads "a missing value". */
export function quote(value: unknown, max = QUOTE_MAX): string {
  if (value === undefined) return "a missing value";
  let out = "";
  const add = (s: string) => {
    out += s.length > max ? s.slice(0, max + 1) : s;
    return out.length <= max;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (v instanceof Date) return add(JSON.stringify(v));
    if (Array.isArray(v)) {
      if (depth > 32) return add("[…]");
      if (!add("[")) return false;
      for (let i = 0; i < v.length; i++)
        if (!(i === 0 || add(",")) || !walk(v[i], depth + 1)) return false;
      return add("]");
    }
    if (v !== null && typeof v === "object") {
      if (depth > 32) return add("{…}");
      if (!add("{")) return false;
      let first = true;
      for (const key in v) {
        if (!(first || add(",")) || !add(`${clipString(key, max)}:`)) return false;
        first = false;
        if (!walk((v as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return add("}");
    }
    if (typeof v === "string") return add(clipString(v, max));
    if (typeof v === "number" || typeof v === "boolean" || v === null) return add(String(v));
    return add(String(typeof v));
  };
  walk(value, 0);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** A string as JSON, from at most `max + 1` of its characters (enough to show it was cut). */
const clipString = (s: string, max: number) =>
  JSON.stringify(s.length > max ? s.slice(0, max + 1) : s);

/**
 * `quote` of a string, without the walk over any value: what validate-answers needs, in the
 * page's script too (the same text as `quote(text)` gives).
 */
export const quoteText = (text: string): string => clip(clipString(text, QUOTE_MAX));

/** Plain text cut at `max` characters with an ellipsis: an option or id named in a message. */
export function clip(text: string, max = QUOTE_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A list of names for a message, cut once it passes `max` characters in all. */
export function clipList(items: readonly string[], max = QUOTE_MAX): string {
  let out = "";
  for (const item of items) {
    out += out === "" ? item : `, ${item}`;
    if (out.length > max) return `${out.slice(0, max)}… (${items.length} in all)`;
  }
  return out;
}
