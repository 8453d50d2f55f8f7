import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatFormFileError, parseFormFile, serialiseForm } from "./form-file.ts";
import { formSchema } from "./schema.ts";

const root = new URL("../../", import.meta.url).pathname;
const examples = readdirSync(join(root, "forms/@me")).map((f) => join(root, "forms/@me", f));
const fixtures = join(root, "test/fixtures/invalid-forms");

describe("form files", () => {
  it.each(examples)("parses and round-trips %s", (file) => {
    const parsed = parseFormFile(readFileSync(file, "utf8"), file);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const again = parseFormFile(serialiseForm(parsed.form), file);
    expect(again.ok && again.form).toEqual(parsed.form);
  });

  it("round-trips generated forms", () => {
    const field = fc.oneof(
      fc.record({
        type: fc.constant("text"),
        label: fc.string({ maxLength: 30 }),
        required: fc.boolean(),
      }),
      fc.record({
        type: fc.constant("radio"),
        options: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      fc.record({ type: fc.constant("nps"), low_label: fc.string({ maxLength: 10 }) }),
      fc.record({ type: fc.constant("date"), min: fc.constant("2026-01-01") }),
    );
    fc.assert(
      // a body is the Markdown under the header: absent, or some non-blank text
      fc.property(
        fc.array(field, { minLength: 1, maxLength: 6 }),
        fc.option(
          fc.string({ maxLength: 200 }).filter((b) => b.trim() !== ""),
          { nil: undefined },
        ),
        (fields, body) => {
          const input = {
            title: "Generated: a form",
            slug: "gen",
            ...(body === undefined ? {} : { body }),
            fields: fields.map((f, i) => ({ id: `f_${i}`, ...f })),
          };
          const form = formSchema.parse(input);
          const parsed = parseFormFile(serialiseForm(form), "gen.md");
          expect(parsed.ok && parsed.form).toEqual(form);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps unquoted YAML dates as ISO text", () => {
    const parsed = parseFormFile(
      "---\ntitle: D\nslug: d\nsettings:\n  closes_at: 2026-12-31T23:59:00Z\nfields:\n  - id: d\n    type: date\n    min: 2026-01-01\n---\n",
    );
    expect(parsed.ok && parsed.form.settings.closes_at).toBe("2026-12-31T23:59:00.000Z");
    expect(parsed.ok && parsed.form.fields[0]).toMatchObject({ min: "2026-01-01" });
  });

  it("validates every example with the JSON Schema derived from the zod schema", () => {
    const schema = z.toJSONSchema(formSchema, { io: "input" });
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const file of examples) {
      const text = readFileSync(file, "utf8");
      const header = (parseFormFile(text, file) as { ok: true; form: object }).form;
      expect(validate(header), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ title: "x", slug: "x", fields: [{ id: "a", type: "nope" }] })).toBe(false);
  });

  it("reports each invalid fixture at its file and line", () => {
    const messages = readdirSync(fixtures)
      .sort()
      .map((name) => {
        const parsed = parseFormFile(readFileSync(join(fixtures, name), "utf8"), name);
        expect(parsed.ok, name).toBe(false);
        return parsed.ok ? "" : parsed.errors.map(formatFormFileError).join("\n");
      });
    expect(messages).toMatchSnapshot();
  });
});
