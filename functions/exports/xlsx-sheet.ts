// The XML of an XLSX workbook of one sheet (ECMA-376, SpreadsheetML), written by xlsx.ts into a
// streamed ZIP: the package's small parts whole, the sheet as a head, its rows batch by batch and
// a tail. Cells are typed as the export's columns say: numbers and booleans as such, dates and
// instants as serial numbers with a date format, everything else an inline string.
import type { XlsxKind } from "./xlsx.ts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Style indexes in styles.xml's cellXfs: the header's bold font, a date, an instant. */
const BOLD = 1;
const STYLE: Partial<Record<XlsxKind, number>> = { date: 2, instant: 3 };
const MS_PER_DAY = 86_400_000;
/** 1970-01-01 as a spreadsheet's serial day (the 1900 date system). */
const EPOCH = 25_569;

/** Control characters XML 1.0 cannot hold: left out. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** Text as element content or an attribute's value. */
export function xmlText(text: string): string {
  return (
    text
      .toWellFormed() // a lone surrogate: U+FFFD, as UTF-8 would write it anyway
      .replace(CONTROLS, "")
      // the two non-characters XML cannot hold either: U+FFFD too, so the cell shows something was there
      .replace(/[\uFFFE\uFFFF]/g, "\uFFFD")
      .replace(/[&<>"]/g, (c) =>
        c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;",
      )
  );
}

/** A cell's text: `_x0041_` would read as an escaped "A", so its underscore is escaped itself. */
function cellText(text: string): string {
  return xmlText(text).replace(/_(x[0-9A-Fa-f]{4}_)/g, "_x005F_$1");
}

/** The column's letters: 1 is A, 27 is AA. */
export function columnName(n: number): string {
  let name = "";
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26))
    name = String.fromCharCode(65 + ((i - 1) % 26)) + name;
  return name;
}

/** One cell's XML, or "" for an empty one (no element at all). */
function cell(ref: string, value: unknown, style: number | undefined): string {
  if (value === null || value === undefined) return "";
  const s = style === undefined ? "" : ` s="${style}"`;
  if (value instanceof Date)
    return `<c r="${ref}"${s}><v>${value.getTime() / MS_PER_DAY + EPOCH}</v></c>`;
  if (typeof value === "number" && Number.isFinite(value))
    return `<c r="${ref}"${s}><v>${value}</v></c>`;
  if (typeof value === "boolean") return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${cellText(String(value))}</t></is></c>`;
}

/** The sheet of these columns: the package's other parts, then the sheet's XML in pieces. */
export function sheetXml(headers: readonly string[], kinds: readonly XlsxKind[]) {
  const letters = kinds.map((_, i) => columnName(i + 1));
  const styles = kinds.map((k) => STYLE[k]);
  let row = 0;
  const line = (cells: readonly unknown[], style?: number) => {
    row++;
    let xml = `<row r="${row}">`;
    for (let i = 0; i < cells.length; i++)
      xml += cell(`${letters[i] ?? columnName(i + 1)}${row}`, cells[i], style ?? styles[i]);
    return `${xml}</row>`;
  };
  const widths = kinds.map((_, i) => Math.min(40, Math.max(10, (headers[i] ?? "").length + 2)));
  const head =
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}">` +
    // the header row stays in view as the rows scroll
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (widths.length > 0
      ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"${styles[i] === undefined ? "" : ` style="${styles[i]}"`}/>`).join("")}</cols>`
      : "") +
    `<sheetData>${line(headers, BOLD)}`;
  return {
    /** The package's parts other than the sheet, by path. */
    parts: (name: string): Record<string, string> => ({
      "[Content_Types].xml": `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
      "_rels/.rels": `${XML}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      "xl/workbook.xml": `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlText(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELS}/styles" Target="styles.xml"/></Relationships>`,
      "xl/styles.xml": `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    }),
    head,
    /** A row's XML, its cells typed already (xlsxCell). */
    row: (cells: readonly unknown[]) => line(cells),
    tail: "</sheetData></worksheet>",
  };
}
