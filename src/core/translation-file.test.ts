import { describe, expect, it } from "vitest";
import { formatFormFileError } from "./form-file.ts";
import { formSchema } from "./schema.ts";
import {
  checkTranslationFile,
  isTranslationFile,
  listedWithMore,
  parseTranslationFile,
  translationBound,
  translationName,
} from "./translation-file.ts";

const form = formSchema.parse({
  title: "Event",
  slug: "event",
  languages: ["de"],
  body: "Welcome.",
  fields: [
    { id: "name", type: "text", label: "Your name" },
    { id: "role", type: "radio", label: "Role", options: ["Speaker", "Guest"] },
  ],
});

const FILE = "forms/@me/event.de.md";
const de = `---
title: Veranstaltung
fields:
  name:
    label: Ihr Name
  role:
    options:
      Speaker: Vortragende
      Gest: Gast
---

Willkommen.
`;

const lines = (text: string, file = FILE) => {
  const { errors, warnings } = checkTranslationFile(form, text, file);
  return { errors: errors.map(formatFormFileError), warnings: warnings.map(formatFormFileError) };
};

describe("translation file names", () => {
  it("tells <slug>.<lang>.md from a form's <slug>.md", () => {
    expect(translationName("forms/@me/event.de.md")).toEqual({ slug: "event", lang: "de" });
    expect(translationName("event.pt-BR.md")).toEqual({ slug: "event", lang: "pt-BR" });
    expect(isTranslationFile("forms/@me/event.md")).toBe(false);
    expect(isTranslationFile("forms/@me/product-survey.md")).toBe(false);
    expect(isTranslationFile("forms/@me/product-survey.ar.md")).toBe(true);
  });
});

describe("checkTranslationFile", () => {
  it("lists at most 100 errors, located in file order, and counts the rest", () => {
    const keys = Array.from({ length: 800 }, (_, i) => `  f${i}: {label: x}`);
    const text = `---\ntitle: T\nfields:\n${keys.join("\n")}\n---\n`;
    const { errors, more } = checkTranslationFile(form, text, FILE);
    expect(errors).toHaveLength(100);
    expect(errors.map((e) => e.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 4));
    expect(more.errors).toBe(700);
    const printed = listedWithMore(errors, more.errors, FILE).map(formatFormFileError);
    expect(printed).toHaveLength(101);
    expect(printed.at(-1)).toBe(`${FILE}:1: …and 700 more`);
  });

  it("refuses a file far longer than a translation of the form's texts before reading it", () => {
    const keys = Array.from({ length: 12_720 }, (_, i) => `  f${i}: {label: x}`);
    const text = `---\ntitle: T\nfields:\n${keys.join("\n")}\n---\n`;
    const { texts, chars } = translationBound(form);
    expect(text.length).toBeGreaterThan(chars);
    const { errors, more } = checkTranslationFile(form, text, FILE);
    expect(errors.map(formatFormFileError)).toEqual([
      `${FILE}:1: the file is 251 KB: a translation of the form's ${texts} texts takes at most ${Math.ceil(chars / 1024)} KB (four times their length, and room for keys)`,
    ]);
    expect(more.errors).toBe(0);
  });

  it("names each problem at its file and line: unknown option an error, a missing string a warning", () => {
    expect(lines(de)).toEqual({
      errors: [
        `${FILE}:9: fields.role.options.Gest: field role has no option "Gest" (did you mean "Guest"?)`,
      ],
      warnings: [
        `${FILE}:6: fields.role.label: not translated (the form says "Role")`,
        `${FILE}:7: fields.role.options.Guest: not translated (the form says "Guest")`,
      ],
    });
  });

  it("reads the Markdown body as the translated body", () => {
    const noBody = de.replace("\nWillkommen.\n", "");
    expect(lines(noBody).warnings).toContain(
      `${FILE}:1: body: not translated (the form says "Welcome.")`,
    );
  });

  it("refuses a language the form does not list, and one the pages do not speak", () => {
    expect(lines(de, "forms/@me/event.fr.md").errors[0]).toBe(
      'forms/@me/event.fr.md:1: the form event does not list "fr" in its languages (add it there, or remove this file)',
    );
    expect(lines(de, "forms/@me/event.xx.md").errors[0]).toMatch(
      /"xx" is not a language Formdown speaks/,
    );
  });

  it("reports a key the translation schema does not know at its line", () => {
    const typo = de.replace("    label: Ihr Name", "    lable: Ihr Name");
    expect(lines(typo).errors).toEqual([
      expect.stringMatching(/^forms\/@me\/event\.de\.md:5: fields\.name: .*lable/),
    ]);
  });

  it("refuses a header that is not YAML, and a body written as a key", () => {
    expect(parseTranslationFile("title: x\n", FILE).ok).toBe(false);
    const body = parseTranslationFile("---\nbody: Hallo\n---\n", FILE);
    expect(body.ok ? [] : body.errors.map((e) => e.path)).toEqual(["body"]);
  });
});
