import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatFormFileError, parseFormFile } from "./form-file.ts";
import { serialiseForm } from "./form-write.ts";
import { formSchema } from "./schema.ts";
import { isTranslationFile } from "./translation-file.ts";

const root = new URL("../../", import.meta.url).pathname;
// copies of the shipped examples: the project's own forms/ belongs to the user (SPEC §15)
const exampleDir = join(root, "test/fixtures/examples");
const examples = readdirSync(exampleDir)
  .filter((f) => f.endsWith(".md") && !isTranslationFile(f))
  .sort();
const fixtureDir = join(root, "test/fixtures/invalid-forms");
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith(".md"))
  .sort();

const readExample = (name: string) => {
  const parsed = parseFormFile(readFileSync(join(exampleDir, name), "utf8"), name);
  if (!parsed.ok) throw new Error(parsed.errors.map(formatFormFileError).join("\n"));
  return parsed.form;
};

describe("the example forms", () => {
  it("are the five documented examples (fixture copies)", () => {
    expect(examples).toEqual([
      "contact.md",
      "product-survey.md",
      "quiz-fr.md",
      "quiz.md",
      "quote.md",
    ]);
  });

  it.each(examples)("%s parses, with its slug equal to its file name", (name) => {
    const form = readExample(name);
    expect(form.slug).toBe(name.replace(/\.md$/, ""));
    expect(form.body).toMatch(/\S/);
    expect(form.fields.length).toBeGreaterThan(0);
  });

  it.each(examples)("%s round-trips through serialiseForm", (name) => {
    const form = readExample(name);
    const text = serialiseForm(form);
    expect(text.startsWith("---\n")).toBe(true);
    const again = parseFormFile(text, name);
    expect(again).toEqual({ ok: true, form });
    // and serialising is stable
    expect(again.ok && serialiseForm(again.form)).toBe(text);
  });

  it("keep the seed's shapes: survey without steps, quiz answer keys, hidden names", () => {
    const survey = readExample("product-survey.md");
    expect(survey.type).toBe("survey");
    expect(survey.hidden).toEqual(["utm_source"]);
    expect(survey.fields.every((f) => f.step === undefined)).toBe(true);
    const quiz = readExample("quiz.md");
    expect(quiz.fields.map((f) => f.answer)).toEqual(["404", ["GET", "HEAD"], "yes", undefined]);
    expect(readExample("contact.md").notifications.email).toEqual(["owner@example.com"]);
  });
});

describe("generated forms round-trip", () => {
  const textish = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc.constantFrom(
      "a: b",
      "- item",
      "# not a comment",
      "'quoted'",
      '"q"',
      "yes",
      "null",
      "1e3",
      "2026-01-01",
      "1_000",
      "on",
      "0755",
    ),
  );
  const label = textish.filter((s) => s.length > 0);
  const opts = (min: number) => fc.uniqueArray(label, { minLength: min, maxLength: 4 });
  const field = fc.oneof(
    fc.record(
      { type: fc.constant("text"), label: textish, required: fc.boolean(), placeholder: textish },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constantFrom("radio", "select"), options: opts(1) }),
    fc.record({ type: fc.constant("checkbox"), options: opts(1) }).map((f) => ({
      ...f,
      options: f.options.map((o, i) =>
        i === 0 ? { label: o, media: { type: "image", url: "https://x.example/a.png" } } : o,
      ),
    })),
    fc.record({ type: fc.constant("ranking"), options: opts(2) }),
    fc.record({ type: fc.constant("nps"), low_label: textish, high_label: textish }),
    fc.record({ type: fc.constant("number"), min: fc.integer({ max: 0 }), max: fc.nat() }),
    fc.record({ type: fc.constant("scale"), min: fc.constant(0), max: fc.constant(10) }),
    fc.record({ type: fc.constant("date"), min: fc.constant("2026-01-01") }),
    fc.record({ type: fc.constantFrom("yes_no", "email", "textarea", "statement", "file") }),
    fc.record({
      type: fc.constant("matrix"),
      rows: fc
        .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/), { minLength: 1, maxLength: 3 })
        .map((ids) => ids.map((id) => ({ id, label: id.toUpperCase() }))),
      columns: opts(1),
    }),
  );
  /** A value the generated field can take as an answer (a show_if value must be one). */
  const anAnswer = (f: { type: string; [key: string]: unknown }): unknown => {
    const options = ((f.options ?? []) as (string | { label: string })[]).map((o) =>
      typeof o === "string" ? o : o.label,
    );
    const rows = (f.rows ?? []) as { id: string }[];
    const answers: Record<string, unknown> = {
      text: "x",
      textarea: "x",
      email: "a@b.example",
      radio: options[0],
      select: options[0],
      checkbox: options.slice(0, 1),
      ranking: options,
      nps: 5,
      number: 0,
      scale: 5,
      date: "2026-02-01",
      yes_no: "yes",
      file: "https://x.example/f.pdf",
      matrix: rows.length ? { [rows[0]!.id]: (f.columns as string[])[0] } : {},
    };
    return answers[f.type];
  };
  const formInput = fc.record(
    {
      title: fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== ""),
      slug: fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){0,2}$/),
      body: textish.filter((b) => b.trim() !== ""),
      hidden: fc.uniqueArray(fc.stringMatching(/^[a-z_]{1,8}$/), { maxLength: 2 }),
      stepped: fc.boolean(),
      fields: fc.array(field, { minLength: 1, maxLength: 6 }),
    },
    { requiredKeys: ["title", "slug", "fields", "stepped"] },
  );

  it("parseFormFile(serialiseForm(form)) gives the form back", () => {
    fc.assert(
      fc.property(formInput, ({ stepped, fields, ...rest }) => {
        const form = formSchema.parse({
          ...rest,
          fields: fields.map((f, i) => ({
            id: `f_${i}`,
            ...f,
            ...(stepped ? { step: i < 2 ? 1 : "Later" } : {}),
            // a show_if on the first field, when it can be compared with neq
            ...(i > 0 && fields[0]!.type !== "statement"
              ? { show_if: { field: "f_0", op: "neq", value: anAnswer(fields[0]!) } }
              : {}),
          })),
        });
        const parsed = parseFormFile(serialiseForm(form), "gen.md");
        expect(parsed).toEqual({ ok: true, form });
      }),
      { numRuns: 150 },
    );
  });
});

describe("form file parsing details", () => {
  it("keeps unquoted YAML dates and timestamps as ISO text", () => {
    const parsed = parseFormFile(
      "---\ntitle: D\nslug: d\nsettings:\n  closes_at: 2026-12-31T23:59:00Z\nfields:\n  - id: d\n    type: date\n    min: 2026-01-01\n---\n",
    );
    expect(parsed.ok && parsed.form.settings.closes_at).toBe("2026-12-31T23:59:00.000Z");
    expect(parsed.ok && parsed.form.fields[0]).toMatchObject({ min: "2026-01-01" });
  });

  it("takes the body from below the header and refuses a body key", () => {
    const ok = parseFormFile(
      "---\ntitle: B\nslug: b\nfields: [{id: a, type: text}]\n---\n\n# Hello\n\nText.\n",
    );
    expect(ok.ok && ok.form.body).toBe("# Hello\n\nText.");
    const none = parseFormFile(
      "---\ntitle: B\nslug: b\nfields: [{id: a, type: text}]\n---\n\n  \n",
    );
    expect(none.ok && none.form.body).toBeUndefined();
    const key = parseFormFile(
      "---\ntitle: B\nslug: b\nbody: x\nfields: [{id: a, type: text}]\n---\n",
    );
    expect(key).toEqual({
      ok: false,
      errors: [
        {
          file: "form.md",
          line: 1,
          path: "body",
          message: "the body is the Markdown below the header, not a key",
        },
      ],
    });
  });

  it("refuses YAML escapes that make a NUL or a lone surrogate, at their key's line", () => {
    for (const yamlEscape of ["\\ud800", "\\udfff", "\\0", "\\x00", "\\U0000D800"]) {
      const text = `---\ntitle: T\nslug: t\nfields:\n  - id: a\n    type: text\n    label: "x${yamlEscape}"\n---\n`;
      const parsed = parseFormFile(text);
      expect(parsed.ok, yamlEscape).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.errors[0]).toMatchObject({ line: 7, path: "fields[0].label" });
      expect(parsed.errors[0]!.message).toMatch(/NUL .* lone surrogate/);
    }
    const key = parseFormFile('---\ntitle: T\nslug: t\n"k\\0": 1\nfields: []\n---\n');
    expect(key.ok).toBe(false);
    // the characters themselves, escaped or not, are fine
    const fine = `---\ntitle: "caf\\u00e9 \\U0001F600"\nslug: t\nfields:\n  - id: a\n    type: text\n---\n`;
    expect(parseFormFile(fine).ok).toBe(true);
  });

  it("accepts Windows line ends and a byte-order mark", () => {
    const text =
      "\uFEFF---\r\ntitle: W\r\nslug: w\r\nfields:\r\n  - id: a\r\n    type: text\r\n---\r\n";
    expect(parseFormFile(text).ok).toBe(true);
  });

  it("formats errors as plain file:line: path: message, naming a field by its id", () => {
    expect(formatFormFileError({ file: "a.md", line: 3, path: "slug", message: "bad" })).toBe(
      "a.md:3: slug: bad",
    );
    expect(
      formatFormFileError({
        file: "a.md",
        line: 9,
        path: "fields[2].max",
        where: "fields[2] (team_size).max",
        message: "must be at most 10",
      }),
    ).toBe("a.md:9: fields[2] (team_size).max: must be at most 10");
    expect(formatFormFileError({ file: "a.md", line: 1, path: "", message: "bad" })).toBe(
      "a.md:1: bad",
    );
  });

  it("reports every problem of a file, each at its own line", () => {
    const parsed = parseFormFile(
      [
        "---",
        "title: Many",
        "slug: Many Problems",
        "fields:",
        "  - id: a",
        "    type: text",
        "  - id: a",
        "    type: rating",
        "    max: 50",
        "---",
      ].join("\n"),
      "many.md",
    );
    expect(!parsed.ok && parsed.errors.map(formatFormFileError)).toEqual([
      "many.md:3: slug: must be lowercase letters, digits and hyphens only (no spaces, underscores or other characters)",
      "many.md:9: fields[1] (a).max: must be at most 10",
      'many.md:7: fields[1] (a).id: "a" is already the id of fields[0]',
    ]);
  });
});

describe("invalid fixtures: one error each, at its file:line", () => {
  const errors = (name: string) => {
    const parsed = parseFormFile(readFileSync(join(fixtureDir, name), "utf8"), name);
    if (parsed.ok) throw new Error(`${name} parsed`);
    return parsed.errors;
  };

  it.each(fixtures)("%s has exactly one error, on a line of the file", (name) => {
    const found = errors(name);
    expect(found).toHaveLength(1);
    const lines = readFileSync(join(fixtureDir, name), "utf8").split("\n").length;
    expect(found[0]!.line).toBeGreaterThanOrEqual(1);
    expect(found[0]!.line).toBeLessThanOrEqual(lines);
  });

  it("points at the offending line's text", () => {
    const lineOf = (name: string) => {
      const text = readFileSync(join(fixtureDir, name), "utf8").split("\n");
      return text[errors(name)[0]!.line - 1]!.trim();
    };
    expect(lineOf("bad-slug.md")).toBe("slug: Not A Slug");
    expect(lineOf("duplicate-id.md")).toBe("- id: a");
    expect(lineOf("duplicate-key.md")).toBe("title: Second");
    expect(lineOf("forward-show-if.md")).toBe("field: b");
    expect(lineOf("invalid-yaml.md")).toBe("label: misindented");
    expect(lineOf("missing-title.md")).toBe("---");
    expect(lineOf("missing-fields.md")).toBe("---");
    expect(lineOf("op-on-text.md")).toBe("op: gt");
    expect(lineOf("survey-step.md")).toBe("step: 2");
    expect(lineOf("show-if-value.md")).toBe("value: true");
    expect(lineOf("unknown-type.md")).toBe("type: slider");
  });

  it("prints the messages formdown validate shows", () => {
    const printed = Object.fromEntries(
      fixtures.map((name) => [name, errors(name).map(formatFormFileError).join("\n")]),
    );
    expect(printed).toMatchInlineSnapshot(`
      {
        "backward-goto.md": "backward-goto.md:11: fields[1] (b).goto: jumps go forward only: "One" is not after this field's page",
        "bad-slug.md": "bad-slug.md:3: slug: must be lowercase letters, digits and hyphens only (no spaces, underscores or other characters)",
        "duplicate-id.md": "duplicate-id.md:7: fields[1] (a).id: "a" is already the id of fields[0]",
        "duplicate-key.md": "duplicate-key.md:4: invalid YAML: duplicated mapping key",
        "forward-show-if.md": "forward-show-if.md:8: fields[0] (a).show_if.field: refers to "b", which comes later",
        "invalid-yaml.md": "invalid-yaml.md:7: invalid YAML: bad indentation of a sequence entry",
        "matrix-rows.md": "matrix-rows.md:10: fields[0] (m).rows[1].id: "r" is already a row id of this field",
        "missing-field-type.md": "missing-field-type.md:7: fields[1] (b).type: is required; the field types are text, email, textarea, number, radio, checkbox, select, date, image, file, rating, scale, nps, yes_no, ranking, matrix, statement",
        "missing-fields.md": "missing-fields.md:1: fields: is required",
        "missing-title.md": "missing-title.md:1: title: is required",
        "no-header.md": "no-header.md:1: a form file starts with a YAML header between --- lines",
        "op-on-text.md": "op-on-text.md:11: fields[1] (b).show_if.op: "gt" works on number, rating, scale, nps fields, not on text",
        "show-if-value.md": "show-if-value.md:12: fields[1] (email).show_if.value: true can never be an answer of "consent" (yes_no): must be "yes" or "no"",
        "statement-required.md": "statement-required.md:8: fields[0] (s).required: a statement records no answer; use yes_no for consent",
        "survey-step.md": "survey-step.md:8: fields[0] (a).step: a survey shows one field at a time; remove step or use type: form",
        "unknown-key.md": "unknown-key.md:7: fields[1] (b): unknown key "requried" (did you mean "required"?)",
        "unknown-op.md": "unknown-op.md:9: fields[1] (b).show_if.op: must be one of eq, neq, gt, lt, gte, lte, includes, excludes, contains, answered, unanswered, got "between"",
        "unknown-type.md": "unknown-type.md:6: fields[0] (a).type: unknown type "slider"; the field types are text, email, textarea, number, radio, checkbox, select, date, image, file, rating, scale, nps, yes_no, ranking, matrix, statement",
        "variable-cycle.md": "variable-cycle.md:6: variables[0].value: variables read each other in a cycle: price → total → price",
      }
    `);
  });
});

describe("JSON Schema from the zod schema", () => {
  const schema = z.toJSONSchema(formSchema, { io: "input" });
  const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);

  it.each(examples)("validates the parsed data of %s", (name) => {
    const form = readExample(name);
    expect(validate(form), JSON.stringify(validate.errors)).toBe(true);
  });

  it("validates the raw header data too (the input side, before defaults)", () => {
    const input = { title: "x", slug: "x", fields: [{ id: "a", type: "text" }] };
    expect(validate(input), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses what the zod schema refuses in shape", () => {
    const ok = { title: "x", slug: "x", fields: [{ id: "a", type: "text" }] };
    expect(validate({ ...ok, fields: [{ id: "a", type: "nope" }] })).toBe(false);
    expect(validate({ ...ok, slug: "Not A Slug" })).toBe(false);
    expect(validate({ ...ok, colour: "red" })).toBe(false);
    expect(validate({ slug: "x", fields: ok.fields })).toBe(false);
    expect(validate({ ...ok, fields: [{ id: "a", type: "nps", options: ["x"] }] })).toBe(false);
  });
});
