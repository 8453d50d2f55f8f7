// The XLSX bench's form, and its file read back with exceljs' streaming reader (bench/xlsx.ts).
import ExcelJS from "exceljs";

/** A text, a number, a date and a checkbox: each kind of cell the export types. */
export const XLSX_FIELDS = [
  { id: "name", type: "text", label: "Name" },
  { id: "score", type: "nps", label: "Score" },
  { id: "day", type: "date", label: "Day" },
  { id: "tags", type: "checkbox", label: "Tags", options: ["a", "b", "c"] },
];
const HEADER = ["Response", "Submitted at", "Name", "Score", "Day", "Tags"];
const DAY = Date.parse("2026-11-27T00:00:00Z");

/** What a row must hold, cell by cell, as the bench seeded it; the first cell that does not, or null. */
function mistyped(values: unknown[]): string | null {
  const [id, at, name, score, day, tags] = values.slice(1);
  if (typeof id !== "string" || id.length !== 36) return `Response ${JSON.stringify(id)}`;
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) return `Submitted at ${String(at)}`;
  if (typeof name !== "string" || !name.startsWith("Person ")) return `Name ${String(name)}`;
  if (typeof score !== "number" || score < 0 || score > 10) return `Score ${String(score)}`;
  if (!(day instanceof Date) || day.getTime() !== DAY) return `Day ${String(day)}`;
  if (tags !== "a; c") return `Tags ${String(tags)}`;
  return null;
}

/**
 * Reads the file as a spreadsheet user's program would, row by row (the reader keeps no sheet in
 * memory): the header, how many rows, and how many of them have a cell of the wrong type.
 */
export async function readBackXlsx(file: string, expected: number) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
  });
  let header: unknown[] = [];
  let rows = 0;
  let bad = 0;
  let first: string | null = null;
  for await (const sheet of reader)
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as unknown[];
      if (row.number === 1) {
        header = values.slice(1);
        continue;
      }
      rows++;
      const wrong = mistyped(values);
      if (wrong) {
        bad++;
        first ??= `row ${row.number}: ${wrong}`;
      }
    }
  if (JSON.stringify(header) !== JSON.stringify(HEADER))
    throw new Error(`header ${JSON.stringify(header)}, not ${JSON.stringify(HEADER)}`);
  if (rows !== expected) throw new Error(`${rows} rows read back, not ${expected}`);
  return { header, rows, mistyped: bad, first };
}
