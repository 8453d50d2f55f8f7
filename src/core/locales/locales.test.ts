import { describe, expect, it } from "vitest";
import { formSchema } from "../schema.ts";
import { isRtl, LOCALES } from "./codes.ts";
import { en } from "./en.ts";
import { fill, MESSAGES, messages } from "./index.ts";

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
});
