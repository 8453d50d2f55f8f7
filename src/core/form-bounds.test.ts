import { describe, expect, it } from "vitest";
import { aliasBombFile, hugeScale, largestForm } from "../../test/security/hostile-forms.ts";
import { definitionWeight, MAX_DEFINITION_WEIGHT } from "./definition-size.ts";
import { parseFormFile } from "./form-file.ts";
import { quote } from "./quote.ts";
import { validateForm } from "./validate-form.ts";

const form = (fields: unknown[]) => ({ title: "T", slug: "t", fields });
const problems = (input: unknown) => {
  const r = validateForm(input);
  return r.ok ? [] : (r.failure.details as { field: string; message: string }[]);
};

describe("bounded form definitions (SPEC §19)", () => {
  it("refuses a YAML alias bomb before anything expands it, with a short answer", () => {
    const file = aliasBombFile();
    expect(file.length).toBeLessThan(1000);
    const r = parseFormFile(file);
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r).length).toBeLessThan(2048);
    if (!r.ok) expect(r.errors[0]!.message).toMatch(/anchors and aliases/);
  });

  it("still reads anchors and aliases that expand to a little", () => {
    const file = [
      "---",
      "title: T",
      "slug: t",
      "fields:",
      "  - { id: a, type: radio, options: &opts [one, two, three] }",
      "  - { id: b, type: checkbox, options: *opts }",
      "---",
      "",
    ].join("\n");
    const r = parseFormFile(file);
    expect(r.ok && r.form.fields[1]).toMatchObject({ options: ["one", "two", "three"] });
  });

  it("refuses a scale of more than 101 points, or one the page could not step through", () => {
    expect(problems(hugeScale)).toEqual([
      { field: "fields[0].max", message: expect.stringMatching(/200001 points.*at most 101/) },
    ]);
    expect(problems(form([{ id: "s", type: "scale", min: 0, max: 100 }]))).toEqual([]);
    expect(problems(form([{ id: "s", type: "scale", min: 0, max: 10, increment: 0.1 }]))).toEqual(
      [],
    );
    expect(problems(form([{ id: "s", type: "scale", min: 0, max: 101 }]))[0]!.field).toBe(
      "fields[0].max",
    );
    const far = problems(form([{ id: "s", type: "scale", min: 1e20, max: 1e20 }]));
    expect(far.map((p) => p.field)).toEqual(["fields[0].min", "fields[0].max"]);
    const tiny = problems(form([{ id: "s", type: "scale", min: 1, max: 1, increment: 1e-300 }]));
    expect(tiny.map((p) => p.field)).toEqual(["fields[0].increment"]);
  });

  it("refuses more than 1,000 options or matrix rows and more than 500 fields", () => {
    const options = (n: number) => Array.from({ length: n }, (_, k) => `o${k}`);
    expect(problems(form([{ id: "a", type: "radio", options: options(1000) }]))).toEqual([]);
    expect(problems(form([{ id: "a", type: "select", options: options(1001) }]))).toEqual([
      { field: "fields[0].options", message: "must have at most 1000 items" },
    ]);
    const rows = options(1001).map((id) => ({ id, label: id }));
    expect(
      problems(form([{ id: "m", type: "matrix", rows, columns: ["x"] }])).map((p) => p.field),
    ).toEqual(["fields[0].rows"]);
    const fields = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `f${i}`, type: "yes_no" }));
    expect(problems(form(fields(500)))).toEqual([]);
    expect(problems(form(fields(501)))).toEqual([
      { field: "fields", message: "must have at most 500 items" },
    ]);
  });

  it("refuses a form file over 256 KB and a definition over 512 KB as JSON", () => {
    const padding = `# ${"x".repeat(300 * 1024)}\n`;
    const r = parseFormFile(
      `---\ntitle: T\nslug: t\n${padding}fields: [{ id: a, type: text }]\n---\n`,
    );
    expect(r.ok ? null : r.errors).toEqual([
      { file: "form.md", line: 1, path: "", message: "the form file is over 256 KB" },
    ]);
    const huge = largestForm(100, 1000);
    expect(definitionWeight(huge, Infinity)).toBeGreaterThan(MAX_DEFINITION_WEIGHT);
    expect(problems(huge)).toEqual([
      { field: "(definition)", message: expect.stringMatching(/too large/) },
    ]);
    // a page draws at most 5,000 choices: options, and rows × columns of a matrix
    expect(validateForm(largestForm(5, 1000)).ok).toBe(true);
    expect(problems(largestForm(6, 1000))).toEqual([
      {
        field: "fields[5].options",
        message: expect.stringMatching(/6000 choices.*at most 5000/),
      },
    ]);
    const ids = Array.from({ length: 200 }, (_, k) => `r${k}`);
    const matrix = {
      id: "m",
      type: "matrix",
      rows: ids.map((id) => ({ id, label: id })),
      columns: ids,
    };
    expect(problems(form([matrix])).map((p) => p.field)).toEqual(["fields[0].rows"]);
  });

  it("weighs a definition about as long as its JSON", () => {
    const value = largestForm(10, 100);
    const json = JSON.stringify(value).length;
    const weight = definitionWeight(value, Infinity);
    expect(weight).toBeGreaterThan(json * 0.9);
    expect(weight).toBeLessThan(json * 1.1);
  });

  it("quotes at most 200 characters of a value in any message", () => {
    const long = "y".repeat(100_000);
    const fields = [
      { id: "a", type: "radio", options: ["one", "two"] },
      { id: "b", type: "text", show_if: { field: "a", op: "eq", value: long } },
      { id: "c", type: "text", show_if: { field: long, op: "eq", value: 1 } },
      { id: "d", type: "select", options: [long, long] },
    ];
    const found = problems(form(fields));
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const p of found) expect(p.message.length, p.field).toBeLessThan(300);
  });

  it("quotes a value that shares its parts without expanding it", () => {
    let v: unknown = ["lol"];
    for (let i = 0; i < 40; i++) v = [v, v, v, v, v, v, v, v, v];
    const text = quote(v);
    expect(text.length).toBeLessThanOrEqual(201);
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote({ a: [1, true, null] })).toBe('{"a":[1,true,null]}');
    expect(quote(undefined)).toBe("a missing value");
  });
});
