import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { Field } from "../field-schema.ts";
import type { ReportData } from "../report-data.ts";
import { newTally } from "../report-summary.ts";
import { renderReportHtml } from "./document.ts";

const EVIL = `</title><script>alert(1)</script><img src=x onerror=alert(2)>`;

function data(
  fields: Field[],
  tallies: ReportData["tallies"],
  extra: Partial<ReportData> = {},
): ReportData {
  return {
    title: EVIL,
    slug: "s",
    locale: "en",
    period: { kind: "all" },
    generatedAt: "2026-11-24T08:00:00.000Z",
    responses: 4,
    totals: { responses: 4, views: 9, starts: 5, completion_rate: 0.8 },
    change: { current: 4, previous: 0, delta: 4, percent: null },
    trend: Array.from({ length: 30 }, (_, i) => ({
      date: `2026-10-${String(i + 1).padStart(2, "0")}`,
      count: i % 3,
    })),
    fields,
    tallies,
    quiz: null,
    dropoff: [],
    medianSeconds: null,
    ...extra,
  };
}

const parse = (html: string) => parseHTML(html).document;

describe("renderReportHtml", () => {
  it("names each bar's answer (data-key, the MCP report app's drill-down), a yes_no's as stored", () => {
    const fields = [
      { id: "ok", type: "yes_no", label: "OK?" },
      { id: "nps", type: "nps", label: "Recommend?" },
    ] as Field[];
    const ok = newTally(2);
    ok.counts.set("yes", 2);
    const nps = newTally(2);
    nps.numbers.set(9, 2);
    const doc = parse(
      renderReportHtml(
        data(
          fields,
          new Map([
            ["ok", ok],
            ["nps", nps],
          ]),
        ),
      ),
    );
    const keys = (id: string) =>
      [...doc.querySelectorAll(`[data-field="${id}"] [data-key]`)].map((e) =>
        e.getAttribute("data-key"),
      );
    expect(keys("ok")).toEqual(["yes", "no"]);
    expect(keys("nps")).toEqual(Array.from({ length: 11 }, (_, i) => String(i)));
  });

  it("escapes every author string and answer: title, labels, options, text answers", () => {
    const fields = [
      { id: "pick", type: "radio", label: EVIL, options: [EVIL, "b"] },
      { id: "say", type: "text", label: "Say" },
    ] as Field[];
    const pick = newTally(4);
    pick.counts.set(EVIL, 3);
    const say = newTally(1);
    say.recent = [EVIL];
    const doc = parse(
      renderReportHtml(
        data(
          fields,
          new Map([
            ["pick", pick],
            ["say", say],
          ]),
        ),
      ),
    );
    expect(doc.querySelectorAll("script, img").length).toBe(0);
    expect(doc.querySelector("title")!.textContent).toBe(`${EVIL} — responses report`);
    expect(doc.querySelector("blockquote")!.textContent).toBe(EVIL);
    expect(doc.querySelector('section[data-field="pick"] tbody th')!.textContent).toBe(EVIL);
  });

  it("bins a number field with many distinct values into equal ranges that keep every count", () => {
    const fields = [{ id: "n", type: "number", label: "N" }] as Field[];
    const n = newTally(100);
    for (let v = 0; v < 100; v++) n.numbers.set(v * 7, 1);
    const doc = parse(renderReportHtml(data(fields, new Map([["n", n]]))));
    const rows = [...doc.querySelectorAll('section[data-field="n"] tbody tr')];
    expect(rows.length).toBe(12);
    const total = rows.reduce((s, r) => s + Number(r.querySelector("td")!.textContent), 0);
    expect(total).toBe(100);
  });

  it("draws the quiz score buckets and says so when a field has no answers", () => {
    const fields = [{ id: "q", type: "radio", label: "Q", options: ["a"] }] as Field[];
    const quiz = new Map([
      [90, 3],
      [40, 1],
    ]);
    const doc = parse(renderReportHtml(data(fields, new Map([["q", newTally(0)]]), { quiz })));
    expect(doc.querySelector('section[data-field="q"]')!.textContent).toContain("No answers yet.");
    const buckets = [...doc.querySelectorAll("#quiz-h + section tbody tr")].map((r) =>
      [...r.children].map((c) => c.textContent),
    );
    expect(buckets[4]).toEqual(["40–49%", "1"]);
    expect(buckets[9]).toEqual(["90–100%", "3"]);
  });
});

describe("renderReportHtml in the form's language", () => {
  const fields = [
    { id: "kommt", type: "yes_no", label: "{field:vorname}, kommst du?" },
    { id: "nps", type: "nps", label: "Empfehlung" },
  ] as Field[];
  const kommt = newTally(3);
  kommt.counts.set("yes", 2).set("no", 1);
  const nps = newTally(3);
  nps.numbers.set(10, 2).set(3, 1);
  const tallies = new Map([
    ["kommt", kommt],
    ["nps", nps],
  ]);

  it("writes a German form's report in German, chart titles and their tables included", () => {
    const d = data(fields, tallies, { locale: "de", title: "Fest" });
    const doc = parse(renderReportHtml(d));
    expect(doc.documentElement.getAttribute("lang")).toBe("de");
    expect(doc.documentElement.hasAttribute("dir")).toBe(false);
    expect(doc.querySelector("h1")!.textContent).toBe("Fest — Auswertung der Antworten");
    const card = doc.querySelector('section[data-field="kommt"]')!;
    expect(card.querySelector("svg title")!.textContent).toBe(
      "[vorname], kommst du?: Antworten pro Option",
    );
    expect([...card.querySelectorAll("tbody th")].map((th) => th.textContent)).toEqual([
      "Ja",
      "Nein",
    ]);
    expect(card.querySelector("summary")!.textContent).toBe("Zahlen");
    const split = doc.querySelector('section[data-field="nps"] svg title')!.textContent;
    expect(split).toBe("Empfehlung: NPS-Aufteilung");
    expect(doc.querySelector('section[data-field="nps"]')!.textContent).toContain("Promotoren 2");
    expect(doc.body.textContent).not.toMatch(/responses|answered|Drop-off|\{field:/);
  });

  it("writes an Arabic report right to left", () => {
    const doc = parse(renderReportHtml(data(fields, tallies, { locale: "ar" })));
    expect(doc.documentElement.getAttribute("lang")).toBe("ar");
    expect(doc.documentElement.getAttribute("dir")).toBe("rtl");
    expect(doc.querySelector("h2")!.textContent).toBe("الردود عبر الزمن");
    expect(doc.querySelector('section[data-field="kommt"] tbody th')!.textContent).toBe("نعم");
  });
});
