import { describe, expect, it } from "vitest";
import { formSchema } from "../schema.ts";
import { isRtl, LOCALES } from "./codes.ts";
import { en } from "./en.ts";
import { fill, MESSAGES, messages } from "./index.ts";
import { INFORMAL } from "./informal.ts";
import { OWNER_TEXT, ownerText } from "./owner-text.ts";
import { INFORMAL_OWNER_TEXT } from "./owner-text-informal.ts";
import { REPORT_TEXT, reportText } from "./report-text.ts";

const keys = Object.keys(en).sort();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("page languages", () => {
  it("has at least the twelve languages SPEC §13 names", () => {
    for (const code of ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he"])
      expect(LOCALES).toContain(code);
    expect(Object.keys(MESSAGES).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)("%s has every key, each non-empty, with the same placeholders", (code) => {
    const table = MESSAGES[code];
    expect(Object.keys(table).sort()).toEqual(keys);
    for (const key of keys) {
      const text = table[key as keyof typeof en];
      expect(text.trim(), `${code}.${key}`).not.toBe("");
      expect(placeholders(text), `${code}.${key}`).toEqual(
        placeholders(en[key as keyof typeof en]),
      );
    }
  });

  it("translates rather than copies: most strings differ from English", () => {
    for (const code of LOCALES.filter((c) => c !== "en")) {
      const same = keys.filter(
        (k) => MESSAGES[code][k as keyof typeof en] === en[k as keyof typeof en],
      );
      expect(same.length, `${code}: ${same.join(", ")}`).toBeLessThan(keys.length / 5);
    }
  });

  it("writes Arabic and Hebrew right to left, the others left to right", () => {
    expect(LOCALES.filter(isRtl)).toEqual(["ar", "he"]);
  });

  it("fills placeholders and keeps unknown ones", () => {
    expect(fill(messages("de").step_of, { n: 2, total: 3 })).toBe("Schritt 2 von 3");
    expect(fill("{a} {b}", { a: 1 })).toBe("1 {b}");
  });

  it("makes an unknown locale a validation error and defaults to English", () => {
    const base = { title: "T", slug: "t", fields: [{ id: "a", type: "text" }] };
    expect(formSchema.parse(base).locale).toBe("en");
    const bad = formSchema.safeParse({ ...base, locale: "xx" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["locale"]);
    expect(bad.error?.issues[0]?.message).toMatch(/must be one of: en, de, fr/);
  });

  it("speaks informally on request (du, tu) with the same keys and placeholders as the formal text", () => {
    expect(messages("de").err_required).toBe("Bitte beantworten Sie diese Frage.");
    expect(messages("de", "informal").err_required).toBe("Bitte beantworte diese Frage.");
    expect(messages("fr", "informal").score).toBe("Ton score : {points} sur {max} ({percent})");
    expect(messages("es", "informal")).toBe(messages("es"));
    for (const [code, table] of Object.entries(INFORMAL)) {
      for (const [key, text] of Object.entries(table!)) {
        expect(keys, `${code}.${key}`).toContain(key);
        expect(placeholders(text), `${code}.${key}`).toEqual(
          placeholders(en[key as keyof typeof en]),
        );
        expect(text, `${code}.${key}`).not.toBe(MESSAGES[code as "de"][key as keyof typeof en]);
      }
    }
  });

  it("has the emails' text in every language, informal where the page has it", () => {
    const ownerKeys = Object.keys(OWNER_TEXT.en).sort();
    for (const code of LOCALES) {
      expect(Object.keys(OWNER_TEXT[code]).sort(), code).toEqual(ownerKeys);
      for (const key of ownerKeys) {
        // Hebrew says "one answer" in a word: its {n} is left out on purpose
        if (code === "he" && key === "response_one") continue;
        const text = OWNER_TEXT[code][key as keyof typeof OWNER_TEXT.en];
        expect(placeholders(text), `${code}.${key}`).toEqual(
          placeholders(OWNER_TEXT.en[key as keyof typeof OWNER_TEXT.en]),
        );
      }
    }
    expect(Object.keys(INFORMAL_OWNER_TEXT).sort()).toEqual(Object.keys(INFORMAL).sort());
    expect(ownerText("de", "informal").your_answers).toBe("Deine Antworten: {title}");
    expect(ownerText("xx").new_response).toBe("New response to {title}");
  });

  it.each(LOCALES)(
    "has the report's and the digest's text in %s, every key with the same placeholders",
    (code) => {
      const en = REPORT_TEXT.en;
      const reportKeys = Object.keys(en).sort();
      expect(Object.keys(REPORT_TEXT[code]).sort()).toEqual(reportKeys);
      for (const key of reportKeys) {
        const text = REPORT_TEXT[code][key as keyof typeof en];
        expect(text.trim(), `${code}.${key}`).not.toBe("");
        expect(placeholders(text), `${code}.${key}`).toEqual(
          placeholders(en[key as keyof typeof en]),
        );
      }
      if (code !== "en") {
        const same = reportKeys.filter(
          (k) => REPORT_TEXT[code][k as keyof typeof en] === en[k as keyof typeof en],
        );
        expect(same.length, `${code}: ${same.join(", ")}`).toBeLessThan(reportKeys.length / 5);
      }
      expect(reportText("xx")).toBe(en);
    },
  );
});
