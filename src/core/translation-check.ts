// What `formdown validate` says about a translation against its form (SPEC §20): a key that names
// nothing of the form is an error; a string of the form the translation lacks is a warning.
import { closest } from "./did-you-mean.ts";
import { pipeRefs } from "./piping.ts";
import { MAX_PROBLEMS, ProblemList } from "./problem-list.ts";
import type { Form } from "./schema.ts";
import { type FormString, formStrings, type StringPath, valueAt } from "./translation.ts";
import type { Translation } from "./translation-schema.ts";

export interface TranslationIssue {
  /** Where in the translation file, e.g. `["fields", "role", "options", "Desgin"]`. */
  path: StringPath;
  message: string;
}

export interface TranslationCheck {
  /** At most `max` of each (100 by default); `more` counts the rest. */
  errors: TranslationIssue[];
  warnings: TranslationIssue[];
  more: { errors: number; warnings: number };
}

const KEY = "\u0000";
const key = (path: StringPath) => path.join(KEY);

/** Every string a translation carries, with its path (gathered in one list, not one per level). */
function translationStrings(t: unknown, path: string[] = [], out: FormString[] = []): FormString[] {
  if (typeof t === "string") out.push({ path, text: t });
  else if (typeof t === "object" && t !== null)
    for (const [k, v] of Object.entries(t)) translationStrings(v, [...path, k], out);
  return out;
}

const GROUP: Record<string, string> = { options: "option", rows: "row", columns: "column" };

/** Why a translated path names nothing: the first key the form does not have, with a hint. */
function unknownKey(path: StringPath, strings: readonly FormString[]): string {
  let k = 0;
  let known = strings;
  while (k < path.length) {
    const next = known.filter((s) => s.path[k] === path[k]);
    if (next.length === 0) break;
    known = next;
    k++;
  }
  const word = path[k]!;
  const candidates = new Set(known.map((s) => s.path[k]).filter((c) => c !== undefined));
  const hint = closest(word, candidates);
  const suggest = hint ? ` (did you mean "${hint}"?)` : "";
  const field = path[0] === "fields" && k >= 2 ? `field ${path[1]}` : "the form";
  if (path[0] === "fields" && k === 1) return `the form has no field "${word}"${suggest}`;
  if (path[0] === "fields" && k === 3 && GROUP[path[2]!])
    return `${field} has no ${GROUP[path[2]!]} "${word}"${suggest}`;
  return `${field} has no ${path.slice(k === 2 && path[0] === "fields" ? 2 : k).join(".")} to translate${suggest}`;
}

/**
 * Two choices of one field shown with the same translation: a respondent could not tell them
 * apart. Only the form's fields are read (a key naming no field is an error of its own).
 */
function sameLabels(form: Form, t: Translation): TranslationIssue[] {
  const out: TranslationIssue[] = [];
  const fields = t.fields ?? {};
  for (const { id } of form.fields) {
    const field = Object.hasOwn(fields, id) ? fields[id] : undefined;
    if (!field) continue;
    for (const group of ["options", "columns"] as const) {
      const seen = new Map<string, string>();
      for (const [value, label] of Object.entries(field[group] ?? {})) {
        const first = seen.get(label);
        if (first === undefined) seen.set(label, value);
        else
          out.push({
            path: ["fields", id, group, value],
            message: `"${label}" is also the translation of "${first}"; each ${GROUP[group]} needs its own`,
          });
      }
    }
  }
  return out;
}

const refText = (r: { kind: string; name: string }) => `{${r.kind}${r.name ? `:${r.name}` : ""}}`;

/** Piping placeholders stay as they are: a translation may not pipe what the form's text does not. */
function newPlaceholders(strings: readonly FormString[], t: Translation): TranslationIssue[] {
  const out: TranslationIssue[] = [];
  for (const s of strings) {
    const translated = valueAt(t, s.path);
    if (typeof translated !== "string") continue;
    const own = new Set(pipeRefs(s.text).map(refText));
    for (const ref of new Set(pipeRefs(translated).map(refText)))
      if (!own.has(ref))
        out.push({
          path: s.path,
          message: `${ref} is not in the form's text; placeholders stay as the form writes them`,
        });
  }
  return out;
}

/**
 * Errors (keys naming nothing of the form) and warnings (strings the translation lacks): at most
 * `max` of each described, the rest counted, so a file of 12,720 unknown keys costs one pass
 * over it, not a did-you-mean for each.
 */
export function checkTranslation(
  form: Form,
  translation: Translation,
  max = MAX_PROBLEMS,
): TranslationCheck {
  const strings = formStrings(form);
  const known = new Set(strings.map((s) => key(s.path)));
  const errors = new ProblemList<TranslationIssue>(max);
  for (const s of translationStrings(translation)) {
    if (known.has(key(s.path))) continue;
    if (errors.full) errors.count();
    else errors.push({ path: s.path, message: unknownKey(s.path, strings) });
  }
  for (const issue of [...sameLabels(form, translation), ...newPlaceholders(strings, translation)])
    errors.push(issue);
  const warnings = new ProblemList<TranslationIssue>(max);
  for (const s of strings) {
    if (valueAt(translation, s.path) !== undefined) continue;
    if (warnings.full) warnings.count();
    else
      warnings.push({ path: s.path, message: `not translated (the form says "${short(s.text)}")` });
  }
  return {
    errors: errors.items,
    warnings: warnings.items,
    more: { errors: errors.more, warnings: warnings.more },
  };
}

const short = (text: string) => {
  const line = text.trim().split("\n")[0]!;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
};
