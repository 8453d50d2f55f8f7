import { describe, expect, it } from "vitest";
import type { Field } from "./field-schema.ts";
import type { ReportData } from "./report-data.ts";
import { reportMarkdown } from "./report-markdown.ts";
import { newTally } from "./report-summary.ts";

const fields = [
  { id: "vorname", type: "text", label: "Vorname" },
  { id: "kommt", type: "yes_no", label: "{field:vorname}, kommst du?" },
  { id: "note", type: "number", label: "Note" },
] as Field[];

/** Intl spaces numbers from their unit with no-break spaces ("67 %"); the test reads plain ones. */
const md = (locale: string) => reportMarkdown(report(locale)).replace(/[\u00a0\u202f]/g, " ");

function report(locale: string): ReportData {
  const kommt = newTally(3);
  kommt.counts.set("yes", 2).set("no", 1);
  const note = newTally(3);
  note.numbers.set(1.5, 2).set(2, 1);
  const vorname = newTally(3);
  vorname.recent = ["Ada", "Bo"];
  return {
    title: "Sommerfest",
    slug: "fest",
    locale,
    period: { kind: "days", days: 7 },
    generatedAt: "2026-11-24T08:00:00.000Z",
    responses: 3,
    totals: { responses: 1234, views: 2000, starts: 1500, completion_rate: 0.5 },
    change: { current: 3, previous: 1, delta: 2, percent: 200 },
    trend: Array.from({ length: 30 }, (_, i) => ({ date: `2026-10-${i + 1}`, count: 0 })),
    fields,
    tallies: new Map([
      ["vorname", vorname],
      ["kommt", kommt],
      ["note", note],
    ]),
    quiz: null,
    dropoff: [{ field: "kommt", reached: 4, answered: 3 }],
    medianSeconds: 95,
  };
}

describe("the Markdown report in the form's language", () => {
  it("writes a German form's report in German: headings, Ja/Nein, numbers and the period", () => {
    expect(md("de")).toContain("# Sommerfest — Auswertung der Antworten");
    expect(md("de")).toContain("**3** Antworten (letzte 7 Tage) · 1.234 insgesamt · 2.000 Aufrufe");
    expect(md("de")).toContain("## Antworten");
    expect(md("de")).toContain("| Option | Anzahl | Anteil |");
    expect(md("de")).toContain("| Ja | 2 | 67 % |");
    expect(md("de")).toContain("| Nein | 1 | 33 % |");
    expect(md("de")).toContain("Mittelwert **1,67**, Median **1,5**.");
    expect(md("de")).toContain("_3 von 3 beantwortet (100 %)_");
    expect(md("de")).toContain("Neueste Antworten:");
    expect(md("de")).toContain("…und 1 weitere.");
    expect(md("de")).toContain("## Abbrüche pro Feld");
    expect(md("de")).toContain("Median der Dauer bis zum Absenden: 1 Min. 35 s.");
    expect(md("de")).not.toMatch(/responses|answered|\| yes \||Drop-off/);
  });

  it("keeps English as it was, yes/no as the page says them", () => {
    expect(md("en")).toContain("**3** responses in the last 7 days · 1,234 in total · 2,000 views");
    expect(md("en")).toContain("| Yes | 2 | 67% |");
    expect(md("en")).toContain("Median time to complete: 1 min 35 s.");
    expect(md("en")).toContain("Last 7 days: 0 · 0 · 0 · 0 · 0 · 0 · 0 (+2 vs the 7 days before)");
  });

  it("shows a piped label by its field's name, never the raw placeholder", () => {
    expect(md("de")).toContain("### \\[vorname\\], kommst du?");
    expect(md("de")).not.toContain("{field:vorname}");
  });

  it("falls back to English for a locale it does not know", () => {
    expect(reportMarkdown(report("xx"))).toContain("— responses report");
  });
});
