import { describe, expect, it } from "vitest";
import { parseTranslationFile } from "./translation-file.ts";
import { translationText } from "./translation-write.ts";

const FILE = "forms/@me/event.de.md";

describe("translationText", () => {
  it("writes strings as a file that reads back as the same strings, the body below the header", () => {
    const strings = {
      title: "Veranstaltung",
      body: "Willkommen.",
      fields: {
        role: { label: "Rolle", options: { "Yes, gladly": "Ja, gern", "2026-01-01": "x" } },
      },
      settings: { submit_label: "Senden" },
    };
    const text = translationText(strings);
    expect(text).toMatch(/^---\ntitle: Veranstaltung\n/);
    expect(text.endsWith("---\n\nWillkommen.\n")).toBe(true);
    expect(parseTranslationFile(text, FILE)).toEqual({ ok: true, translation: strings });
  });

  it("keeps a body that is not text as a key, so the file's check names it", () => {
    const parsed = parseTranslationFile(translationText({ body: 3 }), FILE);
    expect(parsed.ok).toBe(false);
  });
});
