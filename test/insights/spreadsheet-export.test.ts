// Spreadsheets (SPEC §26): XLSX with the questions' labels, typed cells and a checkbox's options
// in one cell, read back with the library that wrote it; CSV with labels and a byte order mark.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Team lunch",
  slug: "lunch",
  humanness: false,
  fields: [
    { id: "name", type: "text", label: "Your name" },
    { id: "guests", type: "number", label: "How many guests?" },
    { id: "day", type: "date", label: "Which day?" },
    { id: "food", type: "checkbox", label: "What do you eat?", options: ["Fish", "Veg", "Meat"] },
    { id: "mood", type: "rating", label: "Mood" },
  ],
};

const readXlsx = async (bytes: ArrayBuffer) => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { sheet, rows };
};

describe.each(DB_KINDS)("spreadsheet exports (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const fields of [
      { name: "Jürgen", guests: 3, day: "2026-11-02", food: ["Fish", "Veg"], mood: 4 },
      { name: "=1+1", guests: 0, day: "2026-11-03", food: [], mood: 5 },
    ]) {
      const res = await api("POST", "/api/forms/lunch/submit", { key: null, body: { fields } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => s?.close());

  const download = (query: string) =>
    fetch(`${s.url}/api/forms/lunch/responses/export?${query}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });

  it("writes XLSX with the labels as headers, numbers as numbers, dates as dates, a checkbox in one cell", async () => {
    const res = await download("format=xlsx");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(res.headers.get("content-disposition")).toContain('filename="lunch-responses.xlsx"');
    const { sheet, rows } = await readXlsx(await res.arrayBuffer());
    expect(sheet.name).toBe("Team lunch");
    expect(rows[0]).toEqual([
      "Response",
      "Submitted at",
      "Your name",
      "How many guests?",
      "Which day?",
      "What do you eat?",
      "Mood",
    ]);
    expect(rows).toHaveLength(3);
    const byName = new Map(rows.slice(1).map((r) => [r[2], r]));
    const jurgen = byName.get("Jürgen")!;
    expect(jurgen[1]).toBeInstanceOf(Date);
    expect(Math.abs((jurgen[1] as Date).getTime() - Date.now())).toBeLessThan(86_400_000);
    expect(jurgen.slice(3)).toEqual([3, new Date("2026-11-02T00:00:00Z"), "Fish; Veg", 4]);
    // a text that looks like a formula stays text; 0 stays the number 0; no options, no cell
    const formula = byName.get("=1+1")!;
    expect(formula.slice(3)).toEqual([0, new Date("2026-11-03T00:00:00Z"), undefined, 5]);
    const cell = sheet.getRow(2).getCell(5);
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    expect(cell.numFmt).toBe("yyyy-mm-dd");
    expect(sheet.getRow(2).getCell(4).type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getRow(3).getCell(3).type).toBe(ExcelJS.ValueType.String);
  });

  it("writes CSV with the labels as headers and a byte order mark when asked", async () => {
    const res = await download("format=csv&header=labels&bom=true");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.slice(1).split("\r\n")[0]).toBe(
      "Response,Submitted at,Your name,How many guests?,Which day?,What do you eat?,Mood",
    );
    expect(text).toContain("Jürgen");
    // without them, as before: ids and no mark
    const plain = await (await download("format=csv")).text();
    expect(plain.startsWith("id,submitted_at,name,guests,day,food,mood\r\n")).toBe(true);
    const bad = await download("format=xls");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("invalid_param");
    expect((await download("bom=yes")).status).toBe(400);
  });

  it("gives the XLSX through MCP (base64) and the CLI (--format xlsx -o)", async () => {
    const mcp = new Client({ name: "test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
      }),
    );
    const answer = (await mcp.callTool({
      name: "export_responses",
      arguments: { slug: "lunch", format: "xlsx" },
    })) as { structuredContent: { format: string; content: string } };
    await mcp.close();
    expect(answer.structuredContent.format).toBe("xlsx");
    const viaMcp = await readXlsx(
      new Uint8Array(Buffer.from(answer.structuredContent.content, "base64")).buffer,
    );
    expect(viaMcp.rows[0]![2]).toBe("Your name");
    const file = `${s.dataDir}/lunch.xlsx`;
    const run = await runFormdown(["export", "lunch", "--format", "xlsx", "-o", file], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey, HOME: s.dataDir },
    });
    expect(run.code).toBe(0);
    const { readFile } = await import("node:fs/promises");
    const viaCli = await readXlsx(new Uint8Array(await readFile(file)).buffer);
    expect(viaCli.rows).toHaveLength(3);
    expect(viaCli.rows[1]![3]).toBeTypeOf("number");
  });
});
