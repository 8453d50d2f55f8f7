// Piping (SPEC §13, §24): `{field:<id>}`, `{hidden:<name>}`, `{var:<id>}`, `{score}` and
// `{percent}` in labels, placeholders, endings and emails, replaced with the respondent's answers. The page and the form rules
// share these few lines, so what validation accepts is exactly what the page fills in.

/** One placeholder; `name` is empty for `{score}` and `{percent}`. */
export interface PipeRef {
  kind: "field" | "hidden" | "var" | "score" | "percent";
  name: string;
}

export interface PipeValues {
  answers: Record<string, unknown>;
  hidden?: Record<string, unknown>;
  /** The variables' values (SPEC §24). */
  variables?: Record<string, unknown> | undefined;
  score?: { points: number; percent: number } | null;
}

const PLACEHOLDER = /\{(?:(field|hidden|var):([A-Za-z0-9_-]+)|(score|percent))\}/g;

/** The placeholders a text names, in order. */
export function pipeRefs(text: string): PipeRef[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) =>
    m[1]
      ? { kind: m[1] as "field" | "hidden" | "var", name: m[2]! }
      : { kind: m[3] as "score" | "percent", name: "" },
  );
}

/**
 * A label as a report or export shows it, where no one respondent's answers apply: each
 * placeholder becomes its name in brackets ("[vorname], an welchem Tag kommst du?"), never the
 * raw `{field:vorname}` nor an empty gap.
 */
export function questionLabel(field: { id: string; label?: string | undefined }): string {
  return (field.label ?? field.id).replace(
    PLACEHOLDER,
    (_all, _kind: string, name: string, quiz: string) => `[${name ?? quiz}]`,
  );
}

/** An answer as text: lists joined with ", ", a matrix as "row: column; …". */
export function answerText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map(answerText).join(", ");
  if (typeof value === "object")
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${answerText(v)}`)
      .join("; ");
  return String(value);
}

const own = (record: Record<string, unknown> | undefined, key: string): unknown =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The text with every placeholder replaced by `encode(value)`: escape HTML for markup,
 * `encodeURIComponent` in a URL, nothing for text set as text. Unanswered values are empty.
 */
export function pipe(
  text: string,
  values: PipeValues,
  encode: (value: string) => string = (v) => v,
): string {
  return text.replace(PLACEHOLDER, (_all, kind: string, name: string, quiz: string) => {
    let value: unknown;
    if (kind)
      value = own(
        kind === "field" ? values.answers : kind === "hidden" ? values.hidden : values.variables,
        name,
      );
    else if (values.score) value = quiz === "score" ? values.score.points : values.score.percent;
    return encode(answerText(value));
  });
}
