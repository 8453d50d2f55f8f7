// CSV with `bom=true` opened by LibreOffice (issue 46: "LibreOffice showed JÃ¼rgen"): the export
// converted by `soffice --headless` to XLSX, read back with exceljs. Headless, LibreOffice takes
// the import's options from --infilter instead of its Text Import dialog; the dialog preselects
// UTF-8 from the byte order mark (sc/source/ui/dbgui/scuiasciiopt.cxx), so the conversion names
// what it would preselect: UTF-8 (76), and "let LibreOffice find it" (0). With no options at all,
// LibreOffice 7.4 headless reads every CSV as Windows-1252, with a mark or without.
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

describe.runIf(SOFFICE)("CSV with bom=true in LibreOffice headless", () => {
  let s: TestServer;
  let csv: Uint8Array;
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
    const res = await fetch(
      `${s.url}/api/forms/lunch/responses/export?format=csv&header=labels&bom=true`,
      { headers: { authorization: `Bearer ${s.apiKey}` } },
    );
    csv = new Uint8Array(await res.arrayBuffer());
  });
  afterAll(async () => s?.close());

  /** The CSV through `soffice --headless --convert-to xlsx` with these import options, read back. */
  const throughLibreOffice = async (options: string) => {
    const dir = join(s.dataDir, `lo-${options.replace(/\W/g, "")}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "lunch.csv"), csv);
    // a profile of its own: no other LibreOffice running on the machine is asked to do it
    await promisify(execFile)(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        "--headless",
        `--infilter=${options}`,
        "--convert-to",
        "xlsx",
        "--outdir",
        dir,
        join(dir, "lunch.csv"),
      ],
      { timeout: 90_000 },
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(dir, "lunch.xlsx"));
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  for (const [options, what] of [
    ["CSV:44,34,76,1", "as UTF-8, the charset its import dialog preselects from the mark"],
    ["CSV:44,34,0,1", "with the charset left to LibreOffice"],
  ] as const)
    it(`opens with the umlauts, the headers without the mark, numbers as numbers (${what})`, async () => {
      const rows = await throughLibreOffice(options);
      // the mark read as one, not as "ï»¿" in front of the first header
      expect(rows[0]).toEqual(["Response", "Submitted at", "Your name", "How many guests?"]);
      const byName = new Map(rows.slice(1).map((r) => [r[2], r[3]]));
      expect(byName).toEqual(
        new Map<unknown, unknown>([
          ["Jürgen Müßig", 3],
          ["Zoë", 0],
        ]),
      );
    }, 120_000);
});
