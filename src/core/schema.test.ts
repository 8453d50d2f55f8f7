import { describe, expect, it } from "vitest";
import { FIELD_TYPES, type FieldType, SHOW_IF_OPS, type ShowIfOp } from "./field-schema.ts";
import { formSchema } from "./schema.ts";
import { validateForm } from "./validate-form.ts";

const base = { title: "T", slug: "t" };
const details = (input: object) => {
  const r = validateForm(input);
  return r.ok ? [] : r.failure.details!;
};
const withFields = (...fields: object[]) => details({ ...base, fields });

/** A minimal valid field of each type. */
const SAMPLE: Record<FieldType, object> = {
  text: { type: "text" },
  email: { type: "email" },
  textarea: { type: "textarea" },
  number: { type: "number" },
  radio: { type: "radio", options: ["x", "y"] },
  checkbox: { type: "checkbox", options: ["x", "y"] },
  select: { type: "select", options: ["x", "y"] },
  date: { type: "date" },
  image: { type: "image" },
  file: { type: "file" },
  rating: { type: "rating" },
  scale: { type: "scale" },
  nps: { type: "nps" },
  yes_no: { type: "yes_no" },
  ranking: { type: "ranking", options: ["x", "y"] },
  matrix: { type: "matrix", rows: [{ id: "r", label: "R" }], columns: ["x"] },
  statement: { type: "statement" },
};

describe("validateForm", () => {
  it("accepts a minimal form and reports failures as validation_failed", () => {
    expect(validateForm({ ...base, fields: [{ id: "a", type: "text" }] }).ok).toBe(true);
    const r = validateForm({ ...base, slug: "Bad Slug", fields: [] });
    expect(r).toEqual({
      ok: false,
      failure: {
        code: "validation_failed",
        error: "The form definition has 2 problems.",
        details: [
          {
            field: "slug",
            message:
              "must be lowercase letters, digits and hyphens only (no spaces, underscores or other characters)",
          },
          { field: "fields", message: "a form needs at least one field" },
        ],
      },
    });
  });

  it.each(FIELD_TYPES)("accepts a minimal %s field", (type) => {
    expect(withFields({ id: "a", ...SAMPLE[type] })).toEqual([]);
  });
});

describe("seed form rule 1: slug charset", () => {
  const slugProblems = (slug: unknown) =>
    details({ ...base, slug, fields: [{ id: "a", type: "text" }] });
  it.each(["contact", "product-survey", "q1-2026", "a", "42"])("accepts %s", (slug) => {
    expect(slugProblems(slug)).toEqual([]);
  });
  it.each([
    "Has-Caps",
    "under_score",
    "sp ace",
    "dot.ted",
    "sl/ash",
    "ok-but-é",
    "",
    "-lead",
    "trail-",
  ])("refuses %j at path slug", (slug) => {
    expect(slugProblems(slug)).toEqual([{ field: "slug", message: expect.any(String) }]);
  });
  it("refuses a missing slug at path slug", () => {
    expect(details({ title: "T", fields: [{ id: "a", type: "text" }] })).toEqual([
      { field: "slug", message: "is required" },
    ]);
  });
});

describe("seed form rule 2: field ids are unique (and snake_case)", () => {
  it("names the later duplicate", () => {
    expect(
      withFields({ id: "a", type: "text" }, { id: "b", type: "text" }, { id: "a", type: "email" }),
    ).toEqual([{ field: "fields[2].id", message: '"a" is already the id of fields[0]' }]);
  });
  it.each(["name", "q1", "first_name", "a_1_b"])("accepts id %s", (id) => {
    expect(withFields({ id, type: "text" })).toEqual([]);
  });
  it.each(["Name", "first-name", "1q", "_x", "has space", ""])("refuses id %j", (id) => {
    expect(withFields({ id, type: "text" })).toEqual([
      { field: "fields[0].id", message: expect.any(String) },
    ]);
  });
});

describe("seed form rule 3: show_if refers to an earlier field", () => {
  it("refuses a forward reference", () => {
    expect(
      withFields(
        { id: "a", type: "text", show_if: { field: "b", op: "eq", value: 1 } },
        { id: "b", type: "number" },
      ),
    ).toEqual([{ field: "fields[0].show_if.field", message: 'refers to "b", which comes later' }]);
  });
  it("refuses an unknown field and the field itself", () => {
    expect(
      withFields({ id: "a", type: "text", show_if: { field: "zz", op: "eq", value: 1 } }),
    ).toEqual([
      {
        field: "fields[0].show_if.field",
        message: 'refers to "zz", which is not a field of this form',
      },
    ]);
    expect(
      withFields({ id: "a", type: "text", show_if: { field: "a", op: "eq", value: 1 } }),
    ).toEqual([{ field: "fields[0].show_if.field", message: "a field cannot depend on itself" }]);
  });
  it("accepts a reference to any earlier field, not only the previous one", () => {
    expect(
      withFields(
        { id: "a", type: "yes_no" },
        { id: "b", type: "text" },
        { id: "c", type: "text", show_if: { field: "a", op: "eq", value: "yes" } },
      ),
    ).toEqual([]);
  });
  it("refuses unknown keys in show_if", () => {
    expect(
      withFields(
        { id: "a", type: "yes_no" },
        { id: "b", type: "text", show_if: { field: "a", op: "eq", value: "yes", when: 1 } },
      ),
    ).toEqual([{ field: "fields[1].show_if", message: 'unknown key "when"' }]);
  });
});

describe("seed form rule 4: survey and step are mutually exclusive", () => {
  it("refuses step on any field of a survey", () => {
    expect(
      details({
        ...base,
        type: "survey",
        fields: [
          { id: "a", type: "text" },
          { id: "b", type: "text", step: "About you" },
        ],
      }),
    ).toEqual([
      {
        field: "fields[1].step",
        message: "a survey shows one field at a time; remove step or use type: form",
      },
    ]);
  });
  it("accepts steps on a form and a quiz", () => {
    for (const type of ["form", "quiz"]) {
      expect(
        details({
          ...base,
          type,
          fields: [
            { id: "a", type: "text", step: 1 },
            { id: "b", type: "text", step: "Two" },
          ],
        }),
      ).toEqual([]);
    }
  });
  it("a scale's increment (the distance between values) is not a page, even in a survey", () => {
    expect(
      details({
        ...base,
        type: "survey",
        fields: [{ id: "s", type: "scale", min: 0, max: 10, increment: 2 }],
      }),
    ).toEqual([]);
  });
  it("a scale's step is its page, like any field's: refused in a survey", () => {
    expect(
      details({
        ...base,
        type: "survey",
        fields: [{ id: "s", type: "scale", min: 0, max: 10, step: 2 }],
      })[0]?.field,
    ).toBe("fields[0].step");
  });
  it("refuses a step that is neither a positive integer nor a short label", () => {
    for (const step of [0, -1, 1.5, "", "x".repeat(41)]) {
      expect(withFields({ id: "a", type: "text", step })[0]?.field, String(step)).toBe(
        "fields[0].step",
      );
    }
  });
});

describe("seed form rule 5: matrix row ids are unique within the field", () => {
  const matrix = (rows: object[]) => ({ id: "m", type: "matrix", rows, columns: ["x", "y"] });
  it("names the later duplicate row", () => {
    expect(
      withFields(
        matrix([
          { id: "r", label: "A" },
          { id: "s", label: "B" },
          { id: "r", label: "C" },
        ]),
      ),
    ).toEqual([
      { field: "fields[0].rows[2].id", message: '"r" is already a row id of this field' },
    ]);
  });
  it("allows the same row id in two different matrices", () => {
    expect(
      withFields(matrix([{ id: "r", label: "A" }]), {
        ...matrix([{ id: "r", label: "A" }]),
        id: "n",
      }),
    ).toEqual([]);
  });
  it("refuses duplicate columns and row ids that are not snake_case", () => {
    expect(
      withFields({ id: "m", type: "matrix", rows: [{ id: "r", label: "A" }], columns: ["x", "x"] }),
    ).toEqual([{ field: "fields[0].columns[1]", message: '"x" is listed twice' }]);
    expect(withFields(matrix([{ id: "Row A", label: "A" }]))[0]?.field).toBe(
      "fields[0].rows[0].id",
    );
  });
});

describe("seed form rule 6: a statement records no answer", () => {
  it("refuses required on a statement", () => {
    expect(withFields({ id: "s", type: "statement", required: true })).toEqual([
      {
        field: "fields[0].required",
        message: "a statement records no answer; use yes_no for consent",
      },
    ]);
  });
  it("refuses an answer key on a statement", () => {
    expect(
      details({ ...base, type: "quiz", fields: [{ id: "s", type: "statement", answer: "x" }] }),
    ).toEqual([{ field: "fields[0].answer", message: "a statement records no answer" }]);
  });
  it("refuses a show_if that depends on a statement", () => {
    expect(
      withFields(
        { id: "s", type: "statement" },
        { id: "a", type: "text", show_if: { field: "s", op: "eq", value: 1 } },
      ),
    ).toEqual([
      {
        field: "fields[1].show_if.field",
        message: 'refers to "s", a statement, which has no answer',
      },
    ]);
  });
});

describe("seed form rule 7: ranking", () => {
  it("needs at least two distinct options", () => {
    expect(withFields({ id: "r", type: "ranking", options: ["a"] })).toEqual([
      { field: "fields[0].options", message: "a ranking needs at least two options" },
    ]);
    expect(withFields({ id: "r", type: "ranking", options: ["a", "b", "a"] })).toEqual([
      { field: "fields[0].options[2]", message: '"a" is listed twice' },
    ]);
  });
  it("options are a flat list of strings without media", () => {
    expect(
      withFields({
        id: "r",
        type: "ranking",
        options: [{ label: "a", media: { type: "image", url: "https://x/a.png" } }, "b"],
      })[0]?.field,
    ).toBe("fields[0].options[0]");
  });
  it("required is allowed (it insists on a deliberate reorder)", () => {
    expect(withFields({ id: "r", type: "ranking", options: ["a", "b"], required: true })).toEqual(
      [],
    );
  });
  it("a quiz answer key must order every option exactly once", () => {
    const quiz = (answer: unknown) =>
      details({
        ...base,
        type: "quiz",
        fields: [{ id: "r", type: "ranking", options: ["a", "b"], answer }],
      });
    expect(quiz(["b", "a"])).toEqual([]);
    expect(quiz(["a"])).toEqual([
      {
        field: "fields[0].answer",
        message: "is not a valid answer for this field: must order every option exactly once",
      },
    ]);
  });
});

describe("show_if operators only on the types the seed allows", () => {
  const ALLOWED: Record<ShowIfOp, FieldType[] | "any"> = {
    eq: "any",
    neq: "any",
    gt: ["number", "rating", "scale", "nps"],
    lt: ["number", "rating", "scale", "nps"],
    gte: ["number", "rating", "scale", "nps"],
    lte: ["number", "rating", "scale", "nps"],
    includes: ["checkbox", "ranking"],
    excludes: ["checkbox", "ranking"],
  };
  const answerable = FIELD_TYPES.filter((t) => t !== "statement");
  const cases = SHOW_IF_OPS.flatMap((op) => answerable.map((type) => [op, type] as const));

  /** A value the sample field can take as an answer, as the operator compares it. */
  const VALUE: Partial<Record<FieldType, unknown>> = {
    email: "a@b.example",
    number: 3,
    checkbox: ["x"],
    date: "2026-01-01",
    image: "https://x.example/a.png",
    file: "https://x.example/a.pdf",
    rating: 3,
    scale: 3,
    nps: 3,
    yes_no: "yes",
    ranking: ["x", "y"],
    matrix: { r: "x" },
  };
  const valueFor = (op: ShowIfOp, type: FieldType) =>
    ["gt", "lt", "gte", "lte"].includes(op)
      ? 3
      : op.endsWith("cludes")
        ? "x"
        : (VALUE[type] ?? "x");

  it.each(cases)("%s on a %s field", (op, type) => {
    const found = withFields(
      { id: "a", ...SAMPLE[type] },
      { id: "b", type: "text", show_if: { field: "a", op, value: valueFor(op, type) } },
    );
    const allowed = ALLOWED[op];
    if (allowed === "any" || allowed.includes(type)) expect(found).toEqual([]);
    else
      expect(found).toEqual([
        {
          field: "fields[1].show_if.op",
          message: `"${op}" works on ${allowed.join(", ")} fields, not on ${type}`,
        },
      ]);
  });

  it("refuses a show_if value no answer of the referenced field can take, at show_if.value", () => {
    expect(
      withFields(
        { id: "ok", type: "yes_no" },
        { id: "why", type: "text", show_if: { field: "ok", op: "eq", value: true } },
      ),
    ).toEqual([
      {
        field: "fields[1].show_if.value",
        message: 'true can never be an answer of "ok" (yes_no): must be "yes" or "no"',
      },
    ]);
    expect(
      withFields(
        { id: "plan", type: "radio", options: ["Free", "Pro"] },
        { id: "seats", type: "number", show_if: { field: "plan", op: "eq", value: "Team" } },
        { id: "tools", type: "checkbox", options: ["A", "B"] },
        { id: "why", type: "text", show_if: { field: "tools", op: "includes", value: "C" } },
        { id: "score", type: "nps" },
        { id: "low", type: "text", show_if: { field: "score", op: "lte", value: "6" } },
        { id: "late", type: "text", show_if: { field: "score", op: "eq", value: 11 } },
      ),
    ).toEqual([
      {
        field: "fields[1].show_if.value",
        message: '"Team" can never be an answer of "plan" (radio): must be one of: Free, Pro',
      },
      {
        field: "fields[3].show_if.value",
        message: '"C" can never be an answer of "tools" (checkbox): must be one of: A, B',
      },
      {
        field: "fields[5].show_if.value",
        message: '"6" can never be an answer of "score" (nps): must be a number',
      },
      {
        field: "fields[6].show_if.value",
        message: expect.stringContaining('11 can never be an answer of "score" (nps)'),
      },
    ]);
  });

  it("lists the rules' problems together with the fields the schema could not read", () => {
    expect(
      withFields(
        { id: "a", type: "slider" },
        { id: "b", type: "radio" },
        { id: "c", type: "text", show_if: { field: "zz", op: "eq", value: "x" } },
        { id: "c", type: "text", show_if: { field: "a", op: "eq", value: "x" } },
      ),
    ).toEqual([
      { field: "fields[0].type", message: expect.stringContaining('unknown type "slider"') },
      { field: "fields[1].options", message: "is required" },
      {
        field: "fields[2].show_if.field",
        message: 'refers to "zz", which is not a field of this form',
      },
      { field: "fields[3].id", message: '"c" is already the id of fields[2]' },
    ]);
  });

  it("keeps show_if values an answer can take", () => {
    expect(
      withFields(
        { id: "ok", type: "yes_no" },
        { id: "a", type: "text", show_if: { field: "ok", op: "eq", value: "yes" } },
        { id: "b", type: "text", show_if: { field: "ok", op: "neq", value: "no" } },
        { id: "score", type: "nps" },
        { id: "c", type: "text", show_if: { field: "score", op: "lte", value: 6 } },
        { id: "d", type: "text", show_if: { field: "score", op: "eq", value: 10 } },
      ),
    ).toEqual([]);
  });

  it("refuses an operator the seed does not list, at show_if.op", () => {
    expect(
      withFields(
        { id: "a", type: "number" },
        { id: "b", type: "text", show_if: { field: "a", op: "between", value: 1 } },
      ),
    ).toEqual([
      {
        field: "fields[1].show_if.op",
        message:
          'must be one of eq, neq, gt, lt, gte, lte, includes, excludes, contains, answered, unanswered, got "between"',
      },
    ]);
    expect(
      withFields(
        { id: "a", type: "number" },
        { id: "b", type: "text", show_if: { field: "a", op: "eg", value: 1 } },
      )[0]?.message,
    ).toBe(
      'must be one of eq, neq, gt, lt, gte, lte, includes, excludes, contains, answered, unanswered, got "eg" (did you mean "eq"?)',
    );
  });
});

describe("field shapes", () => {
  it("refuses unknown keys and unknown types instead of ignoring them", () => {
    expect(withFields({ id: "a", type: "text", requried: true })).toEqual([
      { field: "fields[0]", message: 'unknown key "requried" (did you mean "required"?)' },
    ]);
    expect(withFields({ id: "a", type: "slider" })).toEqual([
      {
        field: "fields[0].type",
        message: expect.stringMatching(/^unknown type "slider"; the field types are text, email/),
      },
    ]);
    expect(withFields({ id: "a", type: "txt" })[0]?.message).toMatch(
      /^unknown type "txt" \(did you mean "text"\?\)/,
    );
    expect(details({ ...base, colour: "red", fields: [{ id: "a", type: "text" }] })).toEqual([
      { field: "", message: 'unknown key "colour"' },
    ]);
    expect(details({ ...base, titel: "x", fields: [{ id: "a", type: "text" }] })).toEqual([
      { field: "", message: 'unknown key "titel" (did you mean "title"?)' },
    ]);
  });

  it("refuses option media on select (seed: only radio and checkbox); earlier labels are fine", () => {
    const media = { type: "image", url: "https://example.com/a.png" };
    expect(
      withFields({ id: "s", type: "select", options: [{ label: "a", media }] })[0]?.field,
    ).toMatch(/^fields\[0\]\.options\[0\]/);
    expect(
      withFields({ id: "s", type: "select", options: [{ label: "a", formerly: ["b"] }] }),
    ).toEqual([]);
  });

  it("checks media URLs by kind, on fields of every type and on option cards", () => {
    const media = (type: string, url: string) => ({ type, url });
    expect(withFields({ id: "a", type: "text", media: media("youtube", "dQw4w9WgXcQ") })).toEqual(
      [],
    );
    expect(withFields({ id: "a", type: "text", media: media("video", "https://x/v.mp4") })).toEqual(
      [],
    );
    expect(
      withFields({ id: "a", type: "text", media: media("model3d", "https://x/m.glb") }),
    ).toEqual([]);
    expect(withFields({ id: "a", type: "text", media: media("video", "https://x/v.avi") })).toEqual(
      [{ field: "fields[0].media.url", message: "must be a direct .mp4 or .webm URL" }],
    );
    expect(
      withFields({
        id: "a",
        type: "select",
        options: ["x"],
        media: media("model3d", "https://x/m.obj"),
      }),
    ).toEqual([{ field: "fields[0].media.url", message: "must be a .glb or .gltf URL" }]);
    expect(
      withFields({
        id: "a",
        type: "ranking",
        options: ["x", "y"],
        media: media("youtube", "not a video"),
      }),
    ).toEqual([
      {
        field: "fields[0].media.url",
        message: "must be a YouTube URL or an 11-character video id",
      },
    ]);
    expect(
      withFields({
        id: "a",
        type: "radio",
        options: ["x", { label: "y", media: media("image", "ftp://x/y.png") }],
      }),
    ).toEqual([
      { field: "fields[0].options[1].media.url", message: "must be a public http(s) URL" },
    ]);
  });

  it("refuses min above max and min_length above max_length", () => {
    expect(withFields({ id: "n", type: "number", min: 5, max: 1 })).toEqual([
      { field: "fields[0].max", message: "must not be below min" },
    ]);
    expect(withFields({ id: "d", type: "date", min: "2026-02-01", max: "2026-01-01" })).toEqual([
      { field: "fields[0].max", message: "must not be below min" },
    ]);
    expect(withFields({ id: "t", type: "text", min_length: 9, max_length: 3 })).toEqual([
      { field: "fields[0].max_length", message: "must not be below min_length" },
    ]);
  });

  it("keeps rating within 2..10 and upload sizes within 100 MB", () => {
    expect(withFields({ id: "r", type: "rating", max: 11 })[0]?.field).toBe("fields[0].max");
    expect(withFields({ id: "f", type: "file", max_mb: 101 })[0]?.field).toBe("fields[0].max_mb");
    expect(withFields({ id: "f", type: "image", accept: ["image/*"], max_mb: 20 })).toEqual([]);
  });

  it("refuses duplicate options and repeated hidden names", () => {
    expect(withFields({ id: "c", type: "checkbox", options: ["a", { label: "a" }] })).toEqual([
      { field: "fields[0].options[1]", message: '"a" is listed twice' },
    ]);
    expect(
      details({ ...base, hidden: ["utm", "utm"], fields: [{ id: "a", type: "text" }] }),
    ).toEqual([{ field: "hidden[1]", message: '"utm" is listed twice' }]);
  });
});

describe("quiz answer keys", () => {
  it("are checked against their field", () => {
    expect(
      details({
        ...base,
        type: "quiz",
        fields: [{ id: "q", type: "radio", options: ["a"], answer: "z" }],
      }),
    ).toEqual([
      {
        field: "fields[0].answer",
        message: "is not a valid answer for this field: must be one of: a",
      },
    ]);
    expect(
      details({
        ...base,
        type: "quiz",
        fields: [{ id: "q", type: "select", options: ["a", "b"], answer: "z" }],
      })[0]?.field,
    ).toBe("fields[0].answer");
  });
  it("belong to quizzes only", () => {
    expect(withFields({ id: "q", type: "radio", options: ["a"], answer: "a" })).toEqual([
      {
        field: "fields[0].answer",
        message: "answers are only scored when the form's type is quiz",
      },
    ]);
  });
});

describe("defaults", () => {
  it("fills the documented defaults", () => {
    const form = formSchema.parse({
      ...base,
      fields: [
        { id: "r", type: "rating" },
        { id: "s", type: "scale" },
        { id: "t", type: "text" },
        { id: "f", type: "file" },
      ],
    });
    expect(form).toMatchObject({
      type: "form",
      humanness: true,
      branding: { primary_color: "#0f172a" },
      notifications: { email: [], strategy: { immediate_count: 10 } },
      settings: { progress_bar: false, randomize_options: false },
      quiz: { show_results: "immediately" },
      hidden: [],
      fields: [
        { max: 5, required: false, points: 1 },
        { min: 1, max: 5, increment: 1 },
        { max_length: 10_000 },
        { max_mb: 10 },
      ],
    });
  });
  it("accepts immediate_count 0 (no per-response emails)", () => {
    expect(
      details({
        ...base,
        notifications: { strategy: { immediate_count: 0 } },
        fields: [{ id: "a", type: "text" }],
      }),
    ).toEqual([]);
  });
});
