import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formJsonSchema } from "./form-json-schema.ts";
import { formSchema } from "./schema.ts";

const root = join(import.meta.dirname, "../..");
/** The example forms as their authors wrote them: the YAML header (plus body), slug from the name. */
const examples = ["test/fixtures/examples", "forms/@me"].flatMap((dir) =>
  readdirSync(join(root, dir))
    // <slug>.<lang>.md is a translation of a form, not a form (SPEC §20)
    .filter((f) => f.endsWith(".md") && !/\.[a-z]{2,3}(-[A-Za-z]{2,4})?\.md$/.test(f))
    .map((f) => {
      const { data, content } = matter(readFileSync(join(root, dir, f), "utf8"), {});
      const form = { slug: f.replace(/\.md$/, ""), ...data, body: content.trim() || undefined };
      return [`${dir}/${f}`, JSON.parse(JSON.stringify(form))] as const;
    }),
);

const schema = formJsonSchema();
const compile = (s: object) => new Ajv2020({ strict: false, validateFormats: false }).compile(s);
const validate = compile(schema);
// the schema as generated before the field types shared their properties
const plain = compile(z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" }));

describe("formJsonSchema (formdown://schema/form)", () => {
  it("states the field types' common properties once, in $defs, within 20,000 bytes", () => {
    const bytes = new TextEncoder().encode(JSON.stringify(schema)).length;
    console.log(`formdown://schema/form: ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(20_000);
    expect(Object.keys(schema.$defs as object)).toContain("field");
    const variants = (schema as any).properties.fields.items.oneOf as object[];
    expect(variants.every((v) => JSON.stringify(v).includes('"$ref":"#/$defs/field"'))).toBe(true);
  });

  it.each(examples)("validates the example form %s", (_name, form) => {
    expect(plain(form), JSON.stringify(plain.errors)).toBe(true);
    expect(validate(form), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses what the full schema refuses: unknown keys, unknown types, missing ids, wrong shapes", () => {
    const base = { title: "T", slug: "t" };
    const bad = [
      { ...base, fields: [{ id: "a", type: "slider" }] },
      { ...base, fields: [{ type: "text" }] },
      { ...base, fields: [{ id: "a", type: "text", colour: "red" }] },
      { ...base, fields: [{ id: "a", type: "nps", options: ["x"] }] },
      { ...base, fields: [{ id: "a", type: "radio" }] },
      { ...base, fields: [{ id: "a", type: "text", show_if: { field: "b", op: "like" } }] },
      { ...base, fields: [{ id: "A b", type: "text" }] },
    ];
    for (const form of bad) {
      expect(plain(form), JSON.stringify(form)).toBe(false);
      expect(validate(form), JSON.stringify(form)).toBe(false);
    }
    const good = {
      ...base,
      fields: [
        {
          id: "a",
          type: "radio",
          options: ["x", { label: "y", media: { type: "image", url: "u" } }],
        },
        { id: "b", type: "scale", min: 0, max: 10, low_label: "no", step: 2 },
        {
          id: "c",
          type: "file",
          accept: ["image/*"],
          max_mb: 5,
          show_if: { field: "a", op: "eq", value: "x" },
        },
      ],
    };
    expect(plain(good)).toBe(true);
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
  });
});
