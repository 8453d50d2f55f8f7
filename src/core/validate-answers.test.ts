import { describe, expect, it } from "vitest";
import type { FieldInput } from "./field-schema.ts";
import { type Form, formSchema } from "./schema.ts";
import { checkAnswer, isEmptyAnswer, validateAnswers } from "./validate-answers.ts";

const form = (...fields: FieldInput[]): Form => formSchema.parse({ title: "T", slug: "t", fields });
const withHidden = (hidden: string[], ...fields: FieldInput[]): Form =>
  formSchema.parse({ title: "T", slug: "t", hidden, fields });

/** The details of a failed validation, or [] when it passed. */
const problems = (f: Form, answers: unknown, hidden?: unknown) => {
  const r = validateAnswers(f, answers, hidden);
  return r.ok ? [] : (r.failure.details ?? []);
};
/** The stored payload; throws when validation failed so a wrong pass cannot hide. */
const payload = (f: Form, answers: unknown, hidden?: unknown) => {
  const r = validateAnswers(f, answers, hidden);
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.failure)}`);
  return r.value.payload;
};

interface Case {
  field: FieldInput;
  good: unknown[];
  /** Each kind of wrong value, with the exact message it must produce. */
  bad: Record<string, [unknown, string]>;
}

const MATRIX: FieldInput = {
  id: "f",
  type: "matrix",
  rows: [
    { id: "r1", label: "Speed" },
    { id: "r2", label: "Design" },
  ],
  columns: ["Poor", "Good"],
};

const CASES: Record<string, Case> = {
  text: {
    field: { id: "f", type: "text", min_length: 2, max_length: 5 },
    good: ["ab", "abcde", "  x "],
    bad: {
      "wrong type (number)": [12, "must be text"],
      "wrong type (list)": [["ab"], "must be text"],
      "too short": ["a", "must be at least 2 characters"],
      "too long": ["abcdef", "must be at most 5 characters"],
    },
  },
  "text (default max 10,000)": {
    field: { id: "f", type: "text" },
    good: ["x".repeat(10_000)],
    bad: { "over the default": ["x".repeat(10_001), "must be at most 10000 characters"] },
  },
  email: {
    field: { id: "f", type: "email" },
    good: ["a@b.co", "first.last+tag@sub.example.org"],
    bad: {
      "wrong type": [5, "must be an email address"],
      "no domain dot": ["a@b", "must be an email address"],
      "no at sign": ["not an email", "must be an email address"],
      "space inside": ["a b@c.de", "must be an email address"],
      "too long": [`${"a".repeat(320)}@b.co`, "must be an email address"],
    },
  },
  textarea: {
    field: { id: "f", type: "textarea", max_length: 20 },
    good: ["line one\nline two"],
    bad: {
      "wrong type": [true, "must be text"],
      "too long": ["x".repeat(21), "must be at most 20 characters"],
    },
  },
  number: {
    field: { id: "f", type: "number", min: 0, max: 10 },
    good: [0, 10, 2.5],
    bad: {
      "numeric string": ["5", "must be a number"],
      NaN: [Number.NaN, "must be a number"],
      infinity: [Number.POSITIVE_INFINITY, "must be a number"],
      "below min": [-1, "must be at least 0"],
      "above max": [11, "must be at most 10"],
    },
  },
  radio: {
    field: {
      id: "f",
      type: "radio",
      options: ["a", { label: "b", media: { type: "image", url: "https://x.example/b.png" } }],
    },
    good: ["a", "b"],
    bad: {
      "unknown option": ["c", "must be one of: a, b"],
      "a list": [["a"], "must be one of: a, b"],
      "wrong type": [1, "must be one of: a, b"],
      "wrong case": ["A", "must be one of: a, b"],
    },
  },
  checkbox: {
    field: { id: "f", type: "checkbox", options: ["a", { label: "b" }, "c"] },
    good: [["a"], ["c", "a"], ["a", "b", "c"]],
    bad: {
      "a bare string": ["a", "must be a list of options"],
      "list of numbers": [[1], "must be a list of options"],
      "unknown option": [["a", "z"], '"z" is not one of the options'],
      "repeated option": [["a", "a"], "must not repeat an option"],
    },
  },
  select: {
    field: { id: "f", type: "select", options: ["a", "b"] },
    good: ["b"],
    bad: {
      "unknown option": ["z", "must be one of: a, b"],
      "wrong type": [0, "must be one of: a, b"],
    },
  },
  date: {
    field: { id: "f", type: "date", min: "2026-01-01", max: "2026-12-31" },
    good: ["2026-01-01", "2026-02-28", "2026-12-31"],
    bad: {
      "impossible day": ["2026-02-30", "must be a date written YYYY-MM-DD"],
      "other format": ["28/02/2026", "must be a date written YYYY-MM-DD"],
      "with a time": ["2026-02-28T10:00:00Z", "must be a date written YYYY-MM-DD"],
      "wrong type": [20260228, "must be a date written YYYY-MM-DD"],
      "before min": ["2025-12-31", "must be on or after 2026-01-01"],
      "after max": ["2027-01-01", "must be on or before 2026-12-31"],
    },
  },
  image: {
    field: { id: "f", type: "image", accept: ["image/*"], max_mb: 5 },
    good: ["https://x.example/1.png", "/api/uploads/t/abc"],
    bad: {
      "an object": [{ url: "https://x.example/1.png" }, "must be the URL of an uploaded file"],
      "not a URL": ["no spaces allowed", "must be the URL of an uploaded file"],
      "javascript URL": ["javascript:alert(1)", "must be the URL of an uploaded file"],
    },
  },
  file: {
    field: { id: "f", type: "file" },
    good: ["https://x.example/u/1.pdf"],
    bad: {
      "wrong type": [3, "must be the URL of an uploaded file"],
      "too long": [`https://x.example/${"a".repeat(2048)}`, "must be the URL of an uploaded file"],
    },
  },
  rating: {
    field: { id: "f", type: "rating", max: 4 },
    good: [1, 4],
    bad: {
      zero: [0, "must be a whole number from 1 to 4"],
      "above max": [5, "must be a whole number from 1 to 4"],
      fraction: [2.5, "must be a whole number from 1 to 4"],
      "numeric string": ["3", "must be a whole number from 1 to 4"],
    },
  },
  "rating (default max 5)": {
    field: { id: "f", type: "rating" },
    good: [5],
    bad: { "above 5": [6, "must be a whole number from 1 to 5"] },
  },
  scale: {
    field: { id: "f", type: "scale", min: 0, max: 10, increment: 2 },
    good: [0, 4, 10],
    bad: {
      "off increment": [3, "must be one of the scale's values (every 2 from 0)"],
      "above max": [12, "must be a number from 0 to 10"],
      "below min": [-2, "must be a number from 0 to 10"],
      "wrong type": ["4", "must be a number from 0 to 10"],
    },
  },
  "scale (defaults 1..5, increment 1)": {
    field: { id: "f", type: "scale" },
    good: [1, 3, 5],
    bad: {
      "zero is below the default min": [0, "must be a number from 1 to 5"],
      "fraction off increment": [2.5, "must be one of the scale's values (every 1 from 1)"],
    },
  },
  nps: {
    field: { id: "f", type: "nps" },
    good: [0, 7, 10],
    bad: {
      negative: [-1, "must be a whole number from 0 to 10"],
      eleven: [11, "must be a whole number from 0 to 10"],
      fraction: [5.5, "must be a whole number from 0 to 10"],
      "numeric string": ["9", "must be a whole number from 0 to 10"],
    },
  },
  yes_no: {
    field: { id: "f", type: "yes_no" },
    good: ["yes", "no"],
    bad: {
      boolean: [true, 'must be "yes" or "no"'],
      "wrong case": ["Yes", 'must be "yes" or "no"'],
      "other word": ["maybe", 'must be "yes" or "no"'],
    },
  },
  ranking: {
    field: { id: "f", type: "ranking", options: ["a", "b", "c"] },
    good: [
      ["a", "b", "c"],
      ["c", "a", "b"],
    ],
    bad: {
      "missing an option": [["a", "b"], "must order every option exactly once"],
      "repeated option": [["a", "b", "b"], "must order every option exactly once"],
      "unknown option": [["a", "b", "d"], "must order every option exactly once"],
      "extra option": [["a", "b", "c", "d"], "must order every option exactly once"],
      "a bare string": ["a", "must be a list of the options in order"],
    },
  },
  matrix: {
    field: MATRIX,
    good: [
      { r1: "Good", r2: "Poor" },
      { r2: "Good", r1: "Good" },
    ],
    bad: {
      "unknown row": [{ r3: "Poor" }, '"r3" is not a row of this field'],
      "unknown column": [{ r1: "Great" }, 'row "r1" must be one of: Poor, Good'],
      "column not a string": [{ r1: 1 }, 'row "r1" must be one of: Poor, Good'],
      "a list": [["Poor"], "must map row ids to columns"],
      "a string": ["Poor", "must map row ids to columns"],
    },
  },
};

describe("validateAnswers: every field type", () => {
  const types = new Set(Object.values(CASES).map((c) => c.field.type));
  it("covers every answerable type", () => {
    expect([...types].sort()).toEqual(
      [
        "checkbox",
        "date",
        "email",
        "file",
        "image",
        "matrix",
        "nps",
        "number",
        "radio",
        "ranking",
        "rating",
        "scale",
        "select",
        "text",
        "textarea",
        "yes_no",
      ].sort(),
    );
  });

  describe.each(Object.entries(CASES))("%s", (_name, { field, good, bad }) => {
    const f = form(field);
    it.each(good.map((v) => [JSON.stringify(v), v]))("accepts %s and stores it as sent", (_, v) => {
      expect(payload(f, { f: v })).toEqual({ f: v });
      // the same check with required: a valid answer also satisfies required
      expect(payload(form({ ...field, required: true } as FieldInput), { f: v })).toEqual({ f: v });
    });
    it.each(Object.entries(bad))("refuses %s", (_kind, [value, message]) => {
      const r = validateAnswers(f, { f: value });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.failure.code).toBe("validation_failed");
      expect(r.failure.details).toEqual([{ field: "f", message }]);
      expect(checkAnswer(f.fields[0]!, value)).toBe(message);
    });
  });

  it("a statement never accepts an answer of its own", () => {
    expect(checkAnswer(form({ id: "s", type: "statement" }).fields[0]!, "x")).toBe(
      "a statement records no answer",
    );
  });
});

describe("validateAnswers: required, empty answers and visibility", () => {
  it("treats an empty string, empty list, empty object, null or absence as no answer", () => {
    for (const empty of ["", [], {}, null, undefined]) expect(isEmptyAnswer(empty)).toBe(true);
    for (const value of [0, "0", " ", false, ["a"], { r: "x" }])
      expect(isEmptyAnswer(value)).toBe(false);
  });

  it("does not store an empty answer to an optional field", () => {
    const f = form(
      { id: "t", type: "text" },
      { id: "c", type: "checkbox", options: ["a"] },
      { ...MATRIX, id: "m" } as FieldInput,
      { id: "n", type: "number" },
    );
    expect(payload(f, { t: "", c: [], m: {}, n: null })).toEqual({});
  });

  it("refuses an empty answer to a required field, per type", () => {
    const f = form(
      { id: "t", type: "text", required: true },
      { id: "c", type: "checkbox", options: ["a"], required: true },
      { id: "k", type: "ranking", options: ["a", "b"], required: true },
      { ...MATRIX, id: "m", required: true } as FieldInput,
      { id: "y", type: "yes_no", required: true },
    );
    expect(problems(f, { t: "", c: [], k: [], m: {} })).toEqual([
      { field: "t", message: "is required" },
      { field: "c", message: "is required" },
      { field: "k", message: "is required" },
      { field: "m", message: "is required" },
      { field: "y", message: "is required" },
    ]);
  });

  it("requires every row of a required matrix, naming the field (not the row)", () => {
    const f = form({ ...MATRIX, required: true } as FieldInput);
    expect(problems(f, { f: { r1: "Poor" } })).toEqual([
      { field: "f", message: 'every row needs an answer ("Design" has none)' },
    ]);
    expect(payload(f, { f: { r1: "Poor", r2: "Good" } })).toEqual({
      f: { r1: "Poor", r2: "Good" },
    });
    // an optional matrix may be answered in part
    expect(payload(form(MATRIX), { f: { r2: "Good" } })).toEqual({ f: { r2: "Good" } });
  });

  it("names the checkbox field, not the item, when one item is wrong", () => {
    const f = form({ id: "tags", type: "checkbox", options: ["a", "b"] });
    expect(problems(f, { tags: ["a", "nope"] })).toEqual([
      { field: "tags", message: '"nope" is not one of the options' },
    ]);
  });

  it("applies required only to visible fields", () => {
    const f = form(
      { id: "kind", type: "radio", options: ["person", "company"] },
      {
        id: "company",
        type: "text",
        required: true,
        show_if: { field: "kind", op: "eq", value: "company" },
      },
    );
    expect(payload(f, { kind: "person" })).toEqual({ kind: "person" });
    expect(payload(f, {})).toEqual({});
    expect(problems(f, { kind: "company" })).toEqual([
      { field: "company", message: "is required" },
    ]);
    expect(problems(f, { kind: "company", company: "" })).toEqual([
      { field: "company", message: "is required" },
    ]);
    expect(payload(f, { kind: "company", company: "ACME" })).toEqual({
      kind: "company",
      company: "ACME",
    });
  });

  it("does not check (or store) a wrong value sent for a hidden field", () => {
    const f = form(
      { id: "n", type: "number" },
      { id: "why", type: "rating", show_if: { field: "n", op: "lt", value: 5 } },
    );
    expect(payload(f, { n: 9, why: 99 })).toEqual({ n: 9 });
    expect(problems(f, { n: 1, why: 99 })).toEqual([
      { field: "why", message: "must be a whole number from 1 to 5" },
    ]);
  });

  it("drops values of fields hidden through a chain of conditions", () => {
    const f = form(
      { id: "a", type: "yes_no" },
      { id: "b", type: "yes_no", show_if: { field: "a", op: "eq", value: "yes" } },
      { id: "c", type: "text", required: true, show_if: { field: "b", op: "eq", value: "yes" } },
    );
    // b is hidden, so its "yes" is never kept and c is hidden too (required or not)
    expect(payload(f, { a: "no", b: "yes", c: "x" })).toEqual({ a: "no" });
    expect(problems(f, { a: "yes", b: "yes" })).toEqual([{ field: "c", message: "is required" }]);
  });

  it("drops a value sent for a statement, and never reports it as unknown", () => {
    const f = form(
      { id: "intro", type: "statement", label: "Read this" },
      { id: "n", type: "nps" },
    );
    expect(payload(f, { intro: "I read it", n: 3 })).toEqual({ n: 3 });
    expect(payload(f, { intro: ["x"] })).toEqual({});
  });

  it("keeps an NPS answer of 0 (and a number answer of 0)", () => {
    const f = form({ id: "n", type: "nps", required: true }, { id: "q", type: "number" });
    expect(payload(f, { n: 0, q: 0 })).toEqual({ n: 0, q: 0 });
  });
});

describe("validateAnswers: ranking semantics (seed rule 7)", () => {
  const f = form({ id: "k", type: "ranking", options: ["a", "b", "c"] });
  it("stores the pre-ordered list as an answer, since it counts as answered", () => {
    expect(payload(f, { k: ["a", "b", "c"] })).toEqual({ k: ["a", "b", "c"] });
  });
  it("a required ranking with no list sent is unanswered; an optional one is simply absent", () => {
    const required = form({ id: "k", type: "ranking", options: ["a", "b"], required: true });
    expect(problems(required, {})).toEqual([{ field: "k", message: "is required" }]);
    expect(payload(f, {})).toEqual({});
  });
});

describe("validateAnswers: unknown ids and the request shape", () => {
  it("refuses unknown field ids with details [{field, message}] naming the bare id", () => {
    const r = validateAnswers(form({ id: "a", type: "text" }), { a: "x", zzz: 1 });
    expect(r).toEqual({
      ok: false,
      failure: {
        code: "validation_failed",
        error: "1 answer needs attention.",
        details: [{ field: "zzz", message: "is not a field of this form" }],
      },
    });
  });

  it("reports unknown ids together with the other problems", () => {
    const f = form({ id: "a", type: "number" }, { id: "b", type: "text", required: true });
    const r = validateAnswers(f, { a: "x", _hidden: { utm: "y" }, "a.b": 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.error).toBe("4 answers need attention.");
    expect(r.failure.details).toEqual([
      { field: "_hidden", message: "is not a field of this form" },
      { field: "a.b", message: "is not a field of this form" },
      { field: "a", message: "must be a number" },
      { field: "b", message: "is required" },
    ]);
  });

  it("refuses a body whose fields is not an object", () => {
    const f = form({ id: "a", type: "text" });
    for (const bad of [null, undefined, [], "x", 3]) {
      expect(validateAnswers(f, bad)).toEqual({
        ok: false,
        failure: {
          code: "validation_failed",
          error: "`fields` must be an object mapping field ids to answers.",
          details: [{ field: "fields", message: "must be an object" }],
        },
      });
    }
  });

  it("never reads answers from the prototype (ids such as constructor)", () => {
    const f = form(
      { id: "constructor", type: "text", required: true },
      { id: "to_string", type: "number" },
      { id: "after", type: "text", show_if: { field: "constructor", op: "eq", value: "x" } },
    );
    expect(problems(f, {})).toEqual([{ field: "constructor", message: "is required" }]);
    expect(payload(f, { constructor: "y" })).toEqual({ constructor: "y" });
    expect(payload(f, { constructor: "x", after: "shown" })).toEqual({
      constructor: "x",
      after: "shown",
    });
    const m = form({
      id: "m",
      type: "matrix",
      required: true,
      rows: [{ id: "constructor", label: "C" }],
      columns: ["x"],
    });
    expect(problems(m, { m: { other: "x" } })[0]!.field).toBe("m");
    expect(checkAnswer(m.fields[0]!, {})).toBeNull();
    expect(problems(m, { m: JSON.parse('{"__proto__": "x"}') })).toEqual([
      { field: "m", message: '"__proto__" is not a row of this field' },
    ]);
  });
});

describe("validateAnswers: hidden URL values", () => {
  const f = withHidden(["utm_source", "ref"], { id: "a", type: "text" });

  it("keeps only declared names, under payload._hidden", () => {
    expect(payload(f, { a: "x" }, { utm_source: "news", evil: "y", a: "z" })).toEqual({
      a: "x",
      _hidden: { utm_source: "news" },
    });
  });

  it("has an empty _hidden on a declaring form when nothing usable came", () => {
    expect(payload(f, {})).toEqual({ _hidden: {} });
    expect(payload(f, {}, { utm_source: 5, ref: "" })).toEqual({ _hidden: {} });
    expect(payload(f, {}, "utm_source=x")).toEqual({ _hidden: {} });
    expect(payload(f, {}, null)).toEqual({ _hidden: {} });
  });

  it("caps a hidden value at 500 characters", () => {
    const long = "v".repeat(600);
    expect(payload(f, {}, { ref: long })).toEqual({ _hidden: { ref: "v".repeat(500) } });
  });

  it("never adds _hidden on a form that declares no hidden names", () => {
    const plain = form({ id: "a", type: "text" });
    const p = payload(plain, { a: "x" }, { utm_source: "news" });
    expect(p).toEqual({ a: "x" });
    expect("_hidden" in p).toBe(false);
  });

  it("adds no _hidden when the answers fail", () => {
    const r = validateAnswers(
      withHidden(["ref"], { id: "a", type: "nps" }),
      { a: 11 },
      { ref: "x" },
    );
    expect(r.ok).toBe(false);
  });
});
