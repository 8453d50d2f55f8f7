// The CSV export opened by LibreOffice (issue 46: "LibreOffice showed JÃ¼rgen"), with bom=true
// and without: each file converted by `soffice --headless` to XLSX and read back with exceljs.
// What decides the reading is the charset LibreOffice imports with, not the locale alone:
// - with no import options at all (what headless, or any program driving LibreOffice without
//   options, gets), LibreOffice 7.4 reads every CSV as Windows-1252 whatever the locale, with a
//   mark or without (sc/source/ui/docshell/docsh.cxx: "default for ascii import (from API without
//   options)"); the mark then shows as "ï»¿" before the first header;
// - a person opening the file gets the Text Import dialog instead, which preselects UTF-8 when the
//   file starts with the mark (sc/source/ui/dbgui/scuiasciiopt.cxx) and otherwise the system's
//   charset: in a UTF-8 locale both files read right, in another (LibreOffice on Windows, or
//   LANG=C) the file without the mark reads as that charset. That is what bom=true changes.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SOFFICE = ["/usr/bin/soffice", "/usr/bin/libreoffice"].find((p) => existsSync(p));
if (!SOFFICE) console.log("No LibreOffice (soffice): the CSV-in-LibreOffice suite is left out.");

const HEADERS = ["Response", "Submitted at", "Your name", "How many guests?"];
const RIGHT = new Map<unknown, unknown>([
  ["Jürgen Müßig", 3],
  ["Zoë", 0],
]);
/** The same names read byte by byte as Windows-1252 or Latin-1 (ß's second byte differs). */
const MISREAD = /^JÃ¼rgen MÃ¼Ã.?ig$/;

describe.runIf(SOFFICE)("the CSV export in LibreOffice headless", () => {
  let s: TestServer;
  const files: Record<"bom" | "plain", Uint8Array> = {
    bom: new Uint8Array(),
    plain: new Uint8Array(),
  };
  beforeAll(async () => {
    s = await startTestServer({ db: "pglite" });
    const api = client(s.url, s.apiKey);
    const form = {
      title: "Team lunch",
      slug: "lunch",
      humanness: false,
      fields: [
        { id: "name", type: "text", label: "Your name" },
        { id: "guests", type: "number", label: "How many guests?" },
      ],
    };
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const fields of [
      { name: "Jürgen Müßig", guests: 3 },
      { name: "Zoë", guests: 0 },
    ])
      expect(
        (await api("POST", "/api/forms/lunch/submit", { key: null, body: { fields } })).status,
      ).toBe(201);
    for (const [name, query] of [
      ["bom", "&bom=true"],
      ["plain", ""],
    ] as const) {
      const res = await fetch(
        `${s.url}/api/forms/lunch/responses/export?format=csv&header=labels${query}`,
        { headers: { authorization: `Bearer ${s.apiKey}` } },
      );
      files[name] = new Uint8Array(await res.arrayBuffer());
    }
    // the mark is the only difference between the two files
    expect([...files.bom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(Buffer.from(files.bom.slice(3)).equals(Buffer.from(files.plain))).toBe(true);
  });
  afterAll(async () => s?.close());

  /**
   * Both files through one `soffice --headless --convert-to xlsx` in `locale`, with these import
   * options (none: LibreOffice's own), each read back as rows of cells.
   */
  const throughLibreOffice = async (locale: string, options?: string) => {
    const dir = join(s.dataDir, `lo-${locale}-${(options ?? "none").replace(/\W/g, "")}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(files))
      writeFileSync(join(dir, `${name}.csv`), bytes);
    // a profile of its own: no other LibreOffice running on the machine is asked to do it
    await promisify(execFile)(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        "--headless",
        ...(options ? [`--infilter=${options}`] : []),
        "--convert-to",
        "xlsx",
        "--outdir",
        dir,
        join(dir, "bom.csv"),
        join(dir, "plain.csv"),
      ],
      { timeout: 90_000, env: { ...process.env, LC_ALL: locale, LANG: locale } },
    );
    const read = async (name: string) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(join(dir, `${name}.xlsx`));
      const rows: unknown[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { header: rows[0], byName: new Map(rows.slice(1).map((r) => [r[2], r[3]])) };
    };
    return { bom: await read("bom"), plain: await read("plain") };
  };

  it("with no import options, reads both as Windows-1252 even in a UTF-8 locale: the mark shows", async () => {
    const { bom, plain } = await throughLibreOffice("C.UTF-8");
    expect(bom.header).toEqual([`ï»¿${HEADERS[0]}`, ...HEADERS.slice(1)]);
    expect(plain.header).toEqual(HEADERS);
    for (const file of [bom, plain]) {
      expect([...file.byName.keys()].some((k) => MISREAD.test(String(k)))).toBe(true);
      expect(file.byName.get("Jürgen Müßig")).toBeUndefined();
    }
  }, 120_000);

  it("with the system's charset in a UTF-8 locale, as the import dialog offers it there, reads both right", async () => {
    const { bom, plain } = await throughLibreOffice("C.UTF-8", "CSV:44,34,SYSTEM,1");
    // the mark read as one, not as "ï»¿" in front of the first header; numbers stay numbers
    for (const file of [bom, plain]) {
      expect(file.header).toEqual(HEADERS);
      expect(file.byName).toEqual(RIGHT);
    }
  }, 120_000);

  it("in a locale that is not UTF-8, the system's charset misreads both; UTF-8, which the dialog preselects from the mark, reads them right", async () => {
    const system = await throughLibreOffice("C", "CSV:44,34,SYSTEM,1");
    for (const file of [system.bom, system.plain])
      expect([...file.byName.keys()].some((k) => MISREAD.test(String(k)))).toBe(true);
    const utf8 = await throughLibreOffice("C", "CSV:44,34,76,1");
    for (const file of [utf8.bom, utf8.plain]) {
      expect(file.header).toEqual(HEADERS);
      expect(file.byName).toEqual(RIGHT);
    }
  }, 120_000);
});

// The XLSX export is written by our own streaming writer (functions/exports/xlsx-sheet.ts, zip.ts):
// LibreOffice, a reader other than the one the suites use, opens it with its cells typed. The
// file is converted by LibreOffice (read, then written again as it understood it) and read back.
describe.runIf(SOFFICE)("the XLSX export in LibreOffice headless", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: "pglite" });
  });
  afterAll(async () => s?.close());

  it("reads numbers, dates and instants as typed, text and formulas as text", async () => {
    const api = client(s.url, s.apiKey);
    const form = {
      title: "Visits",
      slug: "visits",
      humanness: false,
      fields: [
        { id: "name", type: "text", label: "Name" },
        { id: "guests", type: "number", label: "Guests" },
        { id: "day", type: "date", label: "Day" },
        { id: "ok", type: "yes_no", label: "Agreed" },
      ],
    };
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    const fields = { name: '=HYPERLINK("x")', guests: 2.5, day: "2026-11-28", ok: "yes" };
    expect(
      (await api("POST", "/api/forms/visits/submit", { key: null, body: { fields } })).status,
    ).toBe(201);
    const res = await fetch(`${s.url}/api/forms/visits/responses/export?format=xlsx`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    const dir = join(s.dataDir, "lo-xlsx");
    mkdirSync(join(dir, "out"), { recursive: true });
    writeFileSync(join(dir, "visits.xlsx"), new Uint8Array(await res.arrayBuffer()));
    await promisify(execFile)(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        "--headless",
        "--convert-to",
        "xlsx",
        "--outdir",
        join(dir, "out"),
        join(dir, "visits.xlsx"),
      ],
      { timeout: 90_000 },
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(dir, "out", "visits.xlsx"));
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0] as string[];
    const cell = (label: string) => rows[1]![header.indexOf(label)];
    expect(header).toEqual(expect.arrayContaining(["Name", "Guests", "Day", "Agreed"]));
    expect(cell("Name")).toBe('=HYPERLINK("x")');
    expect(cell("Guests")).toBe(2.5);
    expect(cell("Day")).toEqual(new Date("2026-11-28T00:00:00Z"));
    expect(cell("Agreed")).toBe("yes");
    expect(cell("Submitted at")).toBeInstanceOf(Date);
  }, 120_000);
});
