import type { Field } from "./field-schema.ts";

/** What a response records beside its payload (SPEC §24): its ending and variables. */
export interface Recorded {
  ending?: string | null;
  variables?: Record<string, unknown> | null;
}

/** One export column: a header and how to read its cell from a payload. */
export interface Column {
  header: string;
  /** Where the value sits in a payload (for exports the database writes itself). */
  path: string[];
  /** Read from the response's `ending` or `variables` (at `path`) rather than its payload. */
  from?: "ending" | "variables";
  /** A list answer (checkbox, ranking), joined with `; `. */
  list: boolean;
  /** A number answer (number, rating, scale, NPS): written as the number, never neutralised. */
  number?: boolean;
  /** A date answer (`YYYY-MM-DD`): a date cell in a spreadsheet. */
  date?: boolean;
  /** The question's label, for `header=labels` and spreadsheets (SPEC §26). */
  label?: string;
  read(payload: Record<string, unknown>, recorded?: Recorded): unknown;
}

/** Whether a field's answers are numbers (validate-answers.ts): number, rating, scale, NPS. */
export const numberField = (field: Pick<Field, "type">) =>
  field.type === "number" ||
  field.type === "rating" ||
  field.type === "scale" ||
  field.type === "nps";

/** id, submitted_at, then one column per answer field in form order (a matrix: one per row). */
export function exportColumns(fields: readonly Field[], hidden: readonly string[] = []): Column[] {
  const columns: Column[] = [];
  for (const field of fields) {
    if (field.type === "statement") continue;
    if (field.type === "matrix") {
      for (const row of field.rows) {
        columns.push({
          header: `${field.id}.${row.id}`,
          label: `${field.label ?? field.id}: ${row.label}`,
          path: [field.id, row.id],
          list: false,
          read: (p) => (p[field.id] as Record<string, unknown> | undefined)?.[row.id],
        });
      }
    } else {
      const list = field.type === "checkbox" || field.type === "ranking";
      const number = numberField(field);
      const label = field.label ?? field.id;
      const date = field.type === "date";
      columns.push({
        header: field.id,
        label,
        path: [field.id],
        list,
        number,
        date,
        read: (p) => p[field.id],
      });
    }
  }
  for (const name of hidden) {
    columns.push({
      header: `_hidden.${name}`,
      label: name,
      path: ["_hidden", name],
      list: false,
      read: (p) => (p._hidden as Record<string, unknown> | undefined)?.[name],
    });
  }
  return columns;
}

/** The text of a value in a cell: lists joined with `; `, numbers as written (0 stays 0). */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  // an instant as the API writes it (a driver reads timestamptz as a Date)
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(cellText).join("; ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * A text a spreadsheet may run as a formula: `= + - @` after any spaces, line breaks or BOMs, or
 * a leading tab or CR. LibreOffice reads ` =1+1` as a formula (seventh review).
 */
export const FORMULA_START = /^(?:[\t\r]|[ \t\r\n\ufeff]*[=+\-@])/;

/**
 * RFC 4180 quoting, with spreadsheet formulas neutralised in text cells (FORMULA_START gets
 * `'`). A number is written as the number it is: `-4` stays `-4`, so a spreadsheet,
 * pandas or R reads a number (SPEC §23); a text that only looks like one is still text.
 */
export function csvCell(value: unknown): string {
  let text = cellText(value);
  if (typeof value !== "number" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(",")}\r\n`;
