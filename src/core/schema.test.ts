import { describe, expect, it } from "vitest";
import { validateForm } from "./validate-form.ts";

const base = { title: "T", slug: "t" };
const details = (input: object) => {
  const r = validateForm(input);
  return r.ok ? [] : r.failure.details!;
};

describe("the seven form rules, with precise paths", () => {
  it("1. slugs are lowercase letters, digits and hyphens", () => {
    for (const slug of ["Has Caps", "under_score", "sp ace", "-lead", "ok-but-é"]) {
      expect(
        details({ ...base, slug, fields: [{ id: "a", type: "text" }] }).map((d) => d.field),
      ).toEqual(["slug"]);
    }
    expect(details({ ...base, slug: "good-slug-2", fields: [{ id: "a", type: "text" }] })).toEqual(
      [],
    );
  });

  it("2. field ids are unique (and snake_case)", () => {
    expect(
      details({
        ...base,
        fields: [
          { id: "a", type: "text" },
          { id: "a", type: "email" },
        ],
      }),
    ).toEqual([{ field: "fields[1].id", message: '"a" is already the id of fields[0]' }]);
    expect(details({ ...base, fields: [{ id: "Bad-Id", type: "text" }] })[0]!.field).toBe(
      "fields[0].id",
    );
  });

  it("3. show_if refers to an earlier field", () => {
    const fields = [
      { id: "a", type: "text", show_if: { field: "b", op: "eq", value: 1 } },
      { id: "b", type: "number" },
    ];
    expect(details({ ...base, fields })).toEqual([
      { field: "fields[0].show_if.field", message: 'refers to "b", which comes later' },
    ]);
    expect(
      details({
        ...base,
        fields: [{ id: "a", type: "text", show_if: { field: "zz", op: "eq", value: 1 } }],
      })[0]!.message,
    ).toContain("not a field");
  });

  it("4. a survey has no steps", () => {
    expect(
      details({ ...base, type: "survey", fields: [{ id: "a", type: "text", step: 1 }] }),
    ).toEqual([
      {
        field: "fields[0].step",
        message: "a survey shows one field at a time; remove step or use type: form",
      },
    ]);
    expect(
      details({ ...base, type: "form", fields: [{ id: "a", type: "text", step: 1 }] }),
    ).toEqual([]);
  });

  it("5. matrix row ids are unique within the field", () => {
    const matrix = {
      id: "m",
      type: "matrix",
      rows: [
        { id: "r", label: "A" },
        { id: "r", label: "B" },
      ],
      columns: ["x"],
    };
    expect(details({ ...base, fields: [matrix] })).toEqual([
      { field: "fields[0].rows[1].id", message: '"r" is already a row id of this field' },
    ]);
  });

  it("6. a statement records no answer", () => {
    expect(
      details({ ...base, fields: [{ id: "s", type: "statement", required: true }] })[0]!.field,
    ).toBe("fields[0].required");
    expect(
      details({
        ...base,
        fields: [
          { id: "s", type: "statement" },
          { id: "a", type: "text", show_if: { field: "s", op: "eq", value: 1 } },
        ],
      })[0]!.message,
    ).toContain("statement");
  });

  it("7. rankings order plain, distinct options", () => {
    expect(
      details({ ...base, fields: [{ id: "r", type: "ranking", options: ["a"] }] })[0]!.field,
    ).toBe("fields[0].options");
    expect(
      details({ ...base, fields: [{ id: "r", type: "ranking", options: ["a", "a"] }] })[0]!.field,
    ).toBe("fields[0].options[1]");
    expect(
      details({
        ...base,
        fields: [{ id: "r", type: "ranking", options: [{ label: "a" }, "b"] }],
      })[0]!.field,
    ).toBe("fields[0].options[0]");
  });

  it("allows show_if operators only on the types the seed names", () => {
    const with_ = (type: string, op: string, extra: object = {}) =>
      details({
        ...base,
        fields: [
          { id: "a", type, ...extra },
          { id: "b", type: "text", show_if: { field: "a", op, value: 1 } },
        ],
      });
    expect(with_("number", "gt")).toEqual([]);
    expect(with_("text", "gt")).toEqual([
      {
        field: "fields[1].show_if.op",
        message: '"gt" works on number, rating, scale, nps fields, not on text',
      },
    ]);
    expect(with_("checkbox", "includes", { options: ["x"] })).toEqual([]);
    expect(with_("radio", "includes", { options: ["x"] })[0]!.field).toBe("fields[1].show_if.op");
    expect(
      details({
        ...base,
        fields: [
          { id: "a", type: "text" },
          { id: "b", type: "text", show_if: { field: "a", op: "matches", value: 1 } },
        ],
      })[0]!.field,
    ).toBe("fields[1].show_if.op");
  });

  it("checks quiz answers against their field and keeps them to quizzes", () => {
    expect(
      details({
        ...base,
        type: "quiz",
        fields: [{ id: "q", type: "radio", options: ["a"], answer: "z" }],
      })[0]!.field,
    ).toBe("fields[0].answer");
    expect(
      details({ ...base, fields: [{ id: "q", type: "radio", options: ["a"], answer: "a" }] })[0]!
        .message,
    ).toContain("quiz");
  });

  it("refuses unknown keys and types instead of ignoring them", () => {
    expect(details({ ...base, fields: [{ id: "a", type: "text", requried: true }] })).toEqual([
      { field: "fields[0]", message: 'unknown key "requried"' },
    ]);
    expect(details({ ...base, fields: [{ id: "a", type: "slider" }] })[0]!.message).toContain(
      "type must be one of",
    );
  });

  it("fills the documented defaults", () => {
    const r = validateForm({
      ...base,
      fields: [
        { id: "r", type: "rating" },
        { id: "s", type: "scale" },
      ],
    });
    expect(r.ok && r.value).toMatchObject({
      type: "form",
      humanness: true,
      branding: { primary_color: "#0f172a" },
      notifications: { strategy: { immediate_count: 10 } },
      fields: [{ max: 5 }, { min: 1, max: 5, step: 1 }],
    });
  });
});
