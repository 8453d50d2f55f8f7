// What the page says about an answer that needs attention, in the form's language. The rules are
// the core's (validate-answers.ts decides *whether* an answer is wrong); this only words it.
import type { Field } from "../core/field-schema.ts";
import { isEmptyAnswer } from "../core/validate-answers.ts";

export type Tr = (key: string, values?: Record<string, string | number>) => string;

/** A translator over the page's own strings (its JSON definition carries only its locale's). */
export const translator =
  (strings: Record<string, string>): Tr =>
  (key, values = {}) =>
    (strings[key] ?? key).replace(/\{(\w+)\}/g, (all, name: string) =>
      name in values ? String(values[name]) : all,
    );

export function problemText(field: Field, v: unknown, tr: Tr, locale: string): string {
  const num = (n: number) => new Intl.NumberFormat(locale).format(n);
  const day = (d: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(`${d}T00:00:00Z`),
    );
  if (isEmptyAnswer(v)) return tr("err_required");
  switch (field.type) {
    case "matrix":
      return tr("err_rows");
    case "text":
    case "textarea": {
      const n = String(v).length;
      if (n < (field.min_length ?? 0)) return tr("err_min_length", { n: num(field.min_length!) });
      if (n > field.max_length) return tr("err_max_length", { n: num(field.max_length) });
      break;
    }
    case "email":
      return tr("err_email");
    case "number":
      if (typeof v !== "number") return tr("err_number");
      if (v < (field.min ?? v)) return tr("err_min", { min: num(field.min!) });
      if (v > (field.max ?? v)) return tr("err_max", { max: num(field.max!) });
      break;
    case "date":
      if (field.min && String(v) < field.min) return tr("err_date_min", { date: day(field.min) });
      if (field.max && String(v) > field.max) return tr("err_date_max", { date: day(field.max) });
  }
  return tr("err_invalid");
}

/**
 * The API's problems worded in the page's language, whatever words the API used. A rule the
 * page cannot see (a definition changed since it loaded) keeps the API's words on an English page.
 */
export function problems(
  details: { field: string; message: string }[],
  fields: readonly Field[],
  answers: Record<string, unknown>,
  tr: Tr,
  locale: string,
): { field: string; message: string }[] {
  return details.map((d) => {
    const field = fields.find((f) => f.id === d.field);
    let message = field ? problemText(field, answers[d.field], tr, locale) : "";
    if (!message || (message === tr("err_invalid") && locale === "en"))
      message = `${field?.label ?? d.field} ${d.message}.`;
    return { field: d.field, message };
  });
}

/** The message key the status line shows for a submit the server refused with `code`. */
export const refusal = (code: string | undefined) =>
  ({
    access_denied: "denied",
    already_answered: "closed",
    form_closed: "closed",
    rate_limited: "too_many",
    validation_failed: "check",
  })[code ?? ""] ?? "failed";
