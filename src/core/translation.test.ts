import { describe, expect, it } from "vitest";
import { formSchema } from "./schema.ts";
import { formStrings, toFormTerms, translate } from "./translation.ts";
import { checkTranslation } from "./translation-check.ts";
import { type TranslationInput, translationSchema } from "./translation-schema.ts";

const form = formSchema.parse({
  title: "Event feedback",
  slug: "event",
  body: "Tell us about the event, {hidden:name}.",
  languages: ["de", "ar"],
  hidden: ["name"],
  settings: { submit_label: "Send" },
  ending: { title: "Thanks, {field:role}!" },
  fields: [
    { id: "rating", type: "scale", label: "How was it?", low_label: "Bad", high_label: "Great" },
    {
      id: "role",
      type: "radio",
      label: "Your role",
      options: ["Speaker", { label: "Guest", media: { type: "image", url: "/g.svg" } }],
    },
    { id: "topics", type: "checkbox", label: "Topics", options: ["AI", "Web"] },
    {
      id: "aspects",
      type: "matrix",
      label: "Rate",
      rows: [{ id: "food", label: "Food" }],
      columns: ["Poor", "Good"],
    },
    {
      id: "more",
      type: "text",
      label: "Anything else?",
      show_if: { field: "role", op: "eq", value: "Guest" },
    },
  ],
});

const de = (input: TranslationInput) => translationSchema.parse(input);

const full = de({
  title: "Rückmeldung zur Veranstaltung",
  body: "Erzählen Sie uns von der Veranstaltung, {hidden:name}.",
  settings: { submit_label: "Senden" },
  ending: { title: "Danke, {field:role}!" },
  fields: {
    rating: { label: "Wie war es?", low_label: "Schlecht", high_label: "Toll" },
    role: { label: "Ihre Rolle", options: { Speaker: "Vortragende", Guest: "Gast" } },
    topics: { label: "Themen", options: { AI: "KI", Web: "Web" } },
    aspects: {
      label: "Bewerten",
      rows: { food: "Essen" },
      columns: { Poor: "Schlecht", Good: "Gut" },
    },
    more: { label: "Sonst noch etwas?" },
  },
});

describe("the languages key", () => {
  it("takes the page languages the project speaks, and refuses the form's own or an unknown one", () => {
    expect(form.languages).toEqual(["de", "ar"]);
    const own = formSchema.safeParse({ ...form, locale: "de", languages: ["de"] });
    expect(own.error?.issues[0]?.path).toEqual(["languages", 0]);
    expect(formSchema.safeParse({ ...form, languages: ["xx"] }).success).toBe(false);
    expect(formSchema.safeParse({ ...form, languages: ["de", "de"] }).success).toBe(false);
  });
  it("is judged without throwing when the definition is not an object (found by the MCP fuzz)", () => {
    for (const input of [null, 7, "form", []])
      expect(formSchema.safeParse(input).success).toBe(false);
  });
  it("stays absent when a form does not list any", () => {
    const { languages: _, ...plain } = form;
    expect("languages" in formSchema.parse(plain)).toBe(false);
  });
});

describe("checkTranslation", () => {
  it("finds nothing wrong with a complete translation", () => {
    expect(checkTranslation(form, full)).toEqual({
      errors: [],
      warnings: [],
      more: { errors: 0, warnings: 0 },
    });
  });

  it("describes at most 100 keys naming nothing and counts the rest", () => {
    const fields = Object.fromEntries(
      Array.from({ length: 12_720 }, (_, i) => [`f${i}`, { label: "x" }]),
    );
    const found = checkTranslation(form, de({ title: "T", fields }));
    expect(found.errors).toHaveLength(100);
    expect(found.errors[0]).toEqual({
      path: ["fields", "f0", "label"],
      message: 'the form has no field "f0"',
    });
    expect(found.more).toEqual({ errors: 12_620, warnings: 0 });
    expect(found.warnings.length).toBeGreaterThan(0);
  });

  it("warns about each string of the form the translation lacks", () => {
    const partial = de({
      title: "Rückmeldung",
      fields: { role: { options: { Speaker: "Vortragende" } } },
    });
    const { errors, warnings } = checkTranslation(form, partial);
    expect(errors).toEqual([]);
    const paths = warnings.map((w) => w.path.join("."));
    expect(paths).toContain("body");
    expect(paths).toContain("fields.role.label");
    expect(paths).toContain("fields.role.options.Guest");
    expect(paths).toContain("fields.aspects.columns.Poor");
    expect(paths).toContain("ending.title");
    expect(paths).toContain("settings.submit_label");
    expect(paths).not.toContain("fields.role.options.Speaker");
    expect(warnings.find((w) => w.path.join(".") === "fields.role.label")?.message).toBe(
      'not translated (the form says "Your role")',
    );
    expect(warnings).toHaveLength(formStrings(form).length - 2);
  });

  it("reports a key that names no field, option, row, column or string of the form", () => {
    const wrong = de({
      fields: {
        rol: { label: "Rolle" },
        role: { options: { Speakr: "Vortragende" }, placeholder: "…" },
        aspects: { rows: { drinks: "Getränke" }, columns: { Bad: "Schlecht" } },
      },
      quiz: { pass_ending: { title: "Bestanden" } },
    });
    const messages = checkTranslation(form, wrong).errors.map(
      (e) => `${e.path.join(".")}: ${e.message}`,
    );
    expect(messages).toEqual([
      'fields.rol.label: the form has no field "rol" (did you mean "role"?)',
      "fields.role.placeholder: field role has no placeholder to translate",
      'fields.role.options.Speakr: field role has no option "Speakr" (did you mean "Speaker"?)',
      'fields.aspects.rows.drinks: field aspects has no row "drinks"',
      'fields.aspects.columns.Bad: field aspects has no column "Bad"',
      "quiz.pass_ending.title: the form has no quiz.pass_ending.title to translate",
    ]);
  });

  it("reports two options translated alike, which a respondent could not tell apart", () => {
    const twins = de({ fields: { role: { options: { Speaker: "Gast", Guest: "Gast" } } } });
    expect(checkTranslation(form, twins).errors).toEqual([
      {
        path: ["fields", "role", "options", "Guest"],
        message: '"Gast" is also the translation of "Speaker"; each option needs its own',
      },
    ]);
  });
});

describe("piping placeholders in a translation", () => {
  it("are kept as they are, and one the form's text does not have is an error", () => {
    const renamed = de({ ending: { title: "Danke, {field:rolle}!" } });
    expect(checkTranslation(form, renamed).errors).toEqual([
      {
        path: ["ending", "title"],
        message:
          "{field:rolle} is not in the form's text; placeholders stay as the form writes them",
      },
    ]);
  });
});

describe("translate", () => {
  it("translates what respondents read and keeps every value in the form's own terms", () => {
    const { form: t, choices } = translate(form, full);
    expect(t.title).toBe("Rückmeldung zur Veranstaltung");
    expect(t.body).toBe("Erzählen Sie uns von der Veranstaltung, {hidden:name}.");
    expect(t.settings.submit_label).toBe("Senden");
    expect(t.ending?.title).toBe("Danke, {field:role}!");
    const [rating, role, , aspects, more] = t.fields;
    expect(rating).toMatchObject({
      label: "Wie war es?",
      low_label: "Schlecht",
      high_label: "Toll",
    });
    // options, columns and show_if values stay the form's: answers and conditions keep working
    expect(role).toMatchObject({
      label: "Ihre Rolle",
      options: form.fields[1]!.type === "radio" ? form.fields[1]!.options : [],
    });
    expect(aspects).toMatchObject({
      rows: [{ id: "food", label: "Essen" }],
      columns: ["Poor", "Good"],
    });
    expect(more?.show_if).toEqual({ field: "role", op: "eq", value: "Guest" });
    // a choice's label to show; one the translation lacks is shown as the form has it
    expect(choices.role?.Guest).toBe("Gast");
    expect(choices.aspects?.Good).toBe("Gut");
    expect(choices.topics?.Robots).toBeUndefined();
  });

  it("leaves a string the translation lacks as the form has it, and the form itself untouched", () => {
    const before = JSON.stringify(form);
    const { form: t, choices } = translate(form, de({ fields: { role: { label: "Ihre Rolle" } } }));
    expect(t.title).toBe("Event feedback");
    expect(t.fields[0]?.label).toBe("How was it?");
    expect(choices).toEqual({});
    expect(JSON.stringify(form)).toBe(before);
  });
});

describe("toFormTerms", () => {
  it("maps translated option and column labels back to the form's options", () => {
    const answers = { role: "Gast", topics: ["KI", "Web"], aspects: { food: "Gut" }, more: "Gast" };
    expect(toFormTerms(form, full, answers)).toEqual({
      role: "Guest",
      topics: ["AI", "Web"],
      aspects: { food: "Good" },
      more: "Gast",
    });
  });

  it("keeps answers already in the form's terms, and values it does not know", () => {
    const swapped = de({ fields: { role: { options: { Speaker: "Guest", Guest: "Gast" } } } });
    expect(toFormTerms(form, swapped, { role: "Guest" })).toEqual({ role: "Guest" });
    expect(toFormTerms(form, full, { role: "Nobody", rating: 3 })).toEqual({
      role: "Nobody",
      rating: 3,
    });
  });
});

describe("endings chosen by condition, translated (SPEC §24)", () => {
  const form = formSchema.parse({
    title: "Quote",
    slug: "quote",
    languages: ["de"],
    endings: [
      { id: "sales", show_if: { field: "n", op: "gt", value: 9 }, title: "We call you" },
      { id: "quote", title: "Your quote: {var:total}", body: "Thanks." },
    ],
    variables: [{ id: "total", value: "n * 2" }],
    fields: [{ id: "n", type: "number", label: "How many?" }],
  });
  it("are strings a translation carries, by ending id, merged over the form's own", () => {
    expect(formStrings(form).map((s) => s.path.join("."))).toContain("endings.quote.title");
    const t = translationSchema.parse({
      fields: { n: { label: "Wie viele?" } },
      endings: {
        sales: { title: "Wir rufen Sie an" },
        quote: { title: "Ihr Angebot: {var:total}" },
      },
    });
    const de = translate(form, t).form;
    expect(de.endings!.map((e) => [e.id, e.title, e.body])).toEqual([
      ["sales", "Wir rufen Sie an", undefined],
      ["quote", "Ihr Angebot: {var:total}", "Thanks."],
    ]);
    // the conditions stay the form's
    expect(de.endings![0]!.show_if).toEqual(form.endings![0]!.show_if);
    const check = checkTranslation(
      form,
      translationSchema.parse({ endings: { nope: { title: "x" } } }),
    );
    expect(check.errors).toEqual([
      { path: ["endings", "nope", "title"], message: expect.stringContaining("nope") },
    ]);
    expect(check.warnings.map((w) => w.path.join("."))).toContain("endings.quote.body");
  });
});
