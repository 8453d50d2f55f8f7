import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { definitionWeight } from "./definition-size.ts";
import type { FieldInput } from "./field-schema.ts";
import { quote } from "./quote.ts";
import { formSchema } from "./schema.ts";
import { validateAnswers } from "./validate-answers.ts";
import { validateForm } from "./validate-form.ts";

/**
 * A generated field (without its id) with an arbitrary of valid answers and the single
 * mutations that must break an answer: [kind, mutate(valid answer) → wrong value].
 */
interface Gen {
  field: { type: FieldInput["type"]; [key: string]: unknown };
  valid: fc.Arbitrary<unknown>;
  bad: [string, (v: unknown) => unknown][];
}

const label = fc.string({ minLength: 1, maxLength: 8 });
const options = (min: number) => fc.uniqueArray(label, { minLength: min, maxLength: 5 });
/** Generated labels are printable ASCII, so a control character never names an option. */
const NOT_AN_OPTION = "\u0001none";
const DAY = 86_400_000;
const isoDay = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * DAY).toISOString().slice(0, 10);

const text = (type: "text" | "textarea"): fc.Arbitrary<Gen> =>
  fc
    .record({ min: fc.integer({ min: 0, max: 5 }), extra: fc.integer({ min: 1, max: 30 }) })
    .map(({ min, extra }) => {
      const max = min + extra;
      return {
        field: { type, min_length: min, max_length: max },
        valid: fc.string({ minLength: Math.max(min, 1), maxLength: max }),
        bad: [
          ["wrong type", () => 42],
          ["too long", () => "x".repeat(max + 1)],
          ...(min > 1 ? [["too short", () => "x".repeat(min - 1)] as Gen["bad"][number]] : []),
        ],
      };
    });

const email: fc.Arbitrary<Gen> = fc.constant({
  field: { type: "email" },
  valid: fc
    .tuple(
      fc.stringMatching(/^[a-z0-9._+-]{1,12}$/),
      fc.stringMatching(/^[a-z0-9-]{1,12}$/),
      fc.constantFrom("com", "org", "co.uk"),
    )
    .map(([local, host, tld]) => `${local}@${host}.${tld}`),
  bad: [
    ["no at sign", (v) => String(v).replace("@", "")],
    ["a space", (v) => ` ${String(v)}`.replace("@", " @")],
    ["wrong type", () => 7],
  ],
});

const number: fc.Arbitrary<Gen> = fc
  .record({ min: fc.integer({ min: -1000, max: 0 }), span: fc.integer({ min: 0, max: 1000 }) })
  .map(({ min, span }) => ({
    field: { type: "number", min, max: min + span },
    valid: fc.double({ min, max: min + span, noNaN: true }),
    bad: [
      ["above max", () => min + span + 1],
      ["below min", () => min - 0.5],
      ["numeric string", (v) => String(v)],
      ["NaN", () => Number.NaN],
    ],
  }));

const choice = (type: "radio" | "select"): fc.Arbitrary<Gen> =>
  options(1).map((opts) => ({
    field: { type, options: opts },
    valid: fc.constantFrom(...opts),
    bad: [
      ["unknown option", () => NOT_AN_OPTION],
      ["a list", (v) => [v]],
      ["wrong type", () => 1],
    ],
  }));

const checkbox: fc.Arbitrary<Gen> = options(1).map((opts) => ({
  field: { type: "checkbox", options: opts },
  valid: fc.subarray(opts, { minLength: 1 }),
  bad: [
    ["unknown option", (v) => [...(v as string[]), NOT_AN_OPTION]],
    ["repeated option", (v) => [...(v as string[]), (v as string[])[0]]],
    ["a bare string", (v) => (v as string[])[0]],
  ],
}));

const date: fc.Arbitrary<Gen> = fc
  .record({ from: fc.integer({ min: 0, max: 15_000 }), span: fc.integer({ min: 0, max: 3000 }) })
  .map(({ from, span }) => ({
    field: { type: "date", min: isoDay(from), max: isoDay(from + span) },
    valid: fc.integer({ min: from, max: from + span }).map(isoDay),
    bad: [
      ["before min", () => isoDay(from - 1)],
      ["after max", () => isoDay(from + span + 1)],
      ["other format", (v) => String(v).split("-").reverse().join("/")],
      ["impossible day", (v) => `${String(v).slice(0, 4)}-02-30`],
    ],
  }));

const upload = (type: "image" | "file"): fc.Arbitrary<Gen> =>
  fc.constant({
    field: { type },
    valid: fc.stringMatching(/^[a-f0-9]{8,32}$/).map((id) => `https://cdn.example.com/u/${id}`),
    bad: [
      ["not a URL", () => "not a url"],
      ["wrong type", () => 42],
    ],
  });

const rating: fc.Arbitrary<Gen> = fc.integer({ min: 2, max: 10 }).map((max) => ({
  field: { type: "rating", max },
  valid: fc.integer({ min: 1, max }),
  bad: [
    ["zero", () => 0],
    ["above max", () => max + 1],
    ["fraction", (v) => (v as number) + 0.5],
    ["numeric string", (v) => String(v)],
  ],
}));

const scale: fc.Arbitrary<Gen> = fc
  .record({
    min: fc.integer({ min: -5, max: 5 }),
    step: fc.constantFrom(0.5, 1, 2, 3),
    count: fc.integer({ min: 1, max: 10 }),
  })
  .map(({ min, step, count }) => ({
    field: { type: "scale", min, max: min + step * count, increment: step },
    valid: fc.integer({ min: 0, max: count }).map((k) => min + k * step),
    bad: [
      ["above max", () => min + step * (count + 1)],
      ["below min", () => min - step],
      ["off step", () => min + step / 2],
    ],
  }));

const nps: fc.Arbitrary<Gen> = fc.constant({
  field: { type: "nps" },
  valid: fc.integer({ min: 0, max: 10 }),
  bad: [
    ["negative", () => -1],
    ["eleven", () => 11],
    ["fraction", (v) => (v as number) + 0.5],
  ],
});

const yesNo: fc.Arbitrary<Gen> = fc.constant({
  field: { type: "yes_no" },
  valid: fc.constantFrom("yes", "no"),
  bad: [
    ["boolean", (v) => v === "yes"],
    ["upper case", (v) => String(v).toUpperCase()],
  ],
});

const ranking: fc.Arbitrary<Gen> = options(2).map((opts) => ({
  field: { type: "ranking", options: opts },
  valid: fc.shuffledSubarray(opts, { minLength: opts.length, maxLength: opts.length }),
  bad: [
    ["missing an option", (v) => (v as string[]).slice(1)],
    ["repeated option", (v) => [...(v as string[]).slice(1), (v as string[])[1]]],
    ["unknown option", (v) => [...(v as string[]).slice(1), NOT_AN_OPTION]],
  ],
}));

const matrix: fc.Arbitrary<Gen> = fc
  .record({
    rows: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), {
      minLength: 1,
      maxLength: 4,
    }),
    columns: options(1),
  })
  .map(({ rows, columns }) => ({
    field: { type: "matrix", rows: rows.map((id) => ({ id, label: id })), columns },
    valid: fc
      .tuple(...rows.map(() => fc.constantFrom(...columns)))
      .map((cols) => Object.fromEntries(rows.map((id, i) => [id, cols[i]]))),
    bad: [
      ["unknown row", (v) => ({ ...(v as object), NotARow: columns[0] })],
      ["unknown column", (v) => ({ ...(v as object), [rows[0]!]: NOT_AN_OPTION })],
      ["a list", (v) => Object.values(v as object)],
    ],
  }));

const anyField: fc.Arbitrary<Gen> = fc.oneof(
  text("text"),
  text("textarea"),
  email,
  number,
  choice("radio"),
  choice("select"),
  checkbox,
  date,
  upload("image"),
  upload("file"),
  rating,
  scale,
  nps,
  yesNo,
  ranking,
  matrix,
);

/** A form of 1..6 generated fields (each maybe required) with a valid answer for each. */
const generated = fc
  .array(fc.tuple(anyField, fc.boolean()), { minLength: 1, maxLength: 6 })
  .chain((gens) =>
    fc.tuple(
      fc.constant(gens),
      fc.tuple(...gens.map(([g]) => g.valid)),
      fc.option(fc.constantFrom("intro"), { nil: undefined }),
    ),
  )
  .map(([gens, values, intro]) => {
    const fields = gens.map(([g, required], i) => ({ ...g.field, id: `f_${i}`, required }));
    if (intro) fields.unshift({ type: "statement", id: "intro", required: false });
    const form = formSchema.parse({ title: "P", slug: "p", fields });
    const answers = Object.fromEntries(values.map((v, i) => [`f_${i}`, v]));
    return { form, gens: gens.map(([g]) => g), answers };
  });

describe("answer validation properties", () => {
  it("accepts every generated valid answer set, storing it unchanged", () => {
    fc.assert(
      fc.property(generated, ({ form, answers }) => {
        const r = validateAnswers(form, answers);
        if (!r.ok) throw new Error(JSON.stringify(r.failure.details));
        expect(r.value.payload).toEqual(answers);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses any single mutation (wrong type, out of range, unknown option), naming that field", () => {
    const mutated = generated.chain((g) =>
      fc
        .integer({ min: 0, max: g.gens.length - 1 })
        .chain((i) => fc.tuple(fc.constant(g), fc.constant(i), fc.constantFrom(...g.gens[i]!.bad))),
    );
    fc.assert(
      fc.property(mutated, ([{ form, answers }, i, [kind, mutate]]) => {
        const id = `f_${i}`;
        const wrong = mutate(answers[id]);
        const r = validateAnswers(form, { ...answers, [id]: wrong });
        expect(r.ok, `${kind}: ${JSON.stringify(wrong)}`).toBe(false);
        if (!r.ok) expect(r.failure.details!.map((d) => d.field)).toEqual([id]);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses any extra id that is not a field, beside valid answers", () => {
    fc.assert(
      fc.property(
        generated,
        fc
          .string({ minLength: 1, maxLength: 10 })
          .filter((k) => !/^f_\d$/.test(k) && k !== "intro"),
        ({ form, answers }, extra) => {
          const r = validateAnswers(form, { ...answers, [extra]: "x" });
          expect(!r.ok && r.failure.details).toEqual([
            { field: extra, message: "is not a field of this form" },
          ]);
        },
      ),
    );
  });

  it("empty values are never stored and never fail an optional field", () => {
    fc.assert(
      fc.property(generated, fc.constantFrom("", [], {}, null), ({ form }, empty) => {
        const optional = { ...form, fields: form.fields.map((f) => ({ ...f, required: false })) };
        const answers = Object.fromEntries(optional.fields.map((f) => [f.id, empty]));
        const r = validateAnswers(optional, answers);
        expect(r.ok && r.value.payload).toEqual({});
      }),
    );
  });
});

describe("hostile values (SPEC §19)", () => {
  const json = fc.jsonValue({ stringUnit: "binary", maxDepth: 6 });

  it("quotes any value in at most 200 characters (and an ellipsis), as JSON when it fits", () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 300 }), (value, max) => {
        const text = quote(value, max);
        expect(text.length).toBeLessThanOrEqual(max + 1);
        const whole = JSON.stringify(value);
        if (whole.length <= max) expect(text).toBe(whole);
      }),
    );
  });

  it("weighs any JSON value about as long as its text, whatever shares its parts", () => {
    fc.assert(
      fc.property(json, (value) => {
        const length = JSON.stringify(value).length;
        const weight = definitionWeight(value, Infinity);
        // an escaped character is one character weighed, up to six in JSON
        expect(weight).toBeGreaterThanOrEqual(Math.floor(length / 6));
        expect(weight).toBeLessThanOrEqual(length * 2 + 8);
        // sharing a node is weighed at every use, as JSON would print it
        expect(definitionWeight([value, value], Infinity)).toBe(2 * weight + 4);
      }),
    );
  });

  it("never answers a validation with a message longer than a quoted value allows", () => {
    fc.assert(
      fc.property(json, json, (value, field) => {
        const r = validateForm({
          title: "T",
          slug: "t",
          fields: [
            { id: "a", type: "yes_no" },
            { id: "b", type: "text", show_if: { field, op: "eq", value } },
          ],
        });
        for (const d of r.ok ? [] : r.failure.details!) expect(d.message.length).toBeLessThan(600);
      }),
      { numRuns: 200 },
    );
  });
});
