// Ninth review (docs/security-review.md): writing a form's file (SPEC §15) was quadratic twice.
// - A new file's minimal header (src/core/form-minimal.ts) tried removing every key at every
//   depth, each try a parse of the whole field: a field whose show_if has 400 rules took 4.4 s,
//   400 option objects 2.4 s, and the 6,000 rules a valid form may hold minutes, all on the event
//   loop of `POST /api/forms` (any account's write key) and of every later change of that form.
// - A changed file keeps the author's lines through a longest-common-subsequence table
//   (src/core/line-diff.ts), lines × lines cells: a header of 20,000 comment lines (40 KB) took
//   11.6 s and 1.2 GB on `PATCH /api/forms/<slug>`; a 256 KB file of them asks for 65 GB.
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { minimalHeader } from "../../src/core/form-minimal.ts";
import { editFormFile } from "../../src/core/form-write.ts";
import { MAX_CELLS } from "../../src/core/line-diff.ts";
import { formSchema } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";

const rules = (n: number) => ({
  any: Array.from({ length: n }, (_, i) => ({ field: "c", op: "includes", value: `o${i % 2}` })),
});

describe("writing a form file costs no more than the file", () => {
  afterEach(() => vi.restoreAllMocks());

  it("prunes a field's defaults without a parse for each of its conditions and options", () => {
    const result = validateForm({
      title: "Many",
      slug: "many",
      fields: [
        {
          id: "c",
          type: "checkbox",
          options: Array.from({ length: 300 }, (_, i) => ({ label: `o${i}`, formerly: [`x${i}`] })),
        },
        { id: "u", type: "text", show_if: rules(300) },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    const field = formSchema.shape.fields.element;
    const parses = vi.spyOn(field, "safeParse");
    const header = minimalHeader(result.value);
    // each field's own keys (and those of the maps under them), not one per option or rule
    expect(parses.mock.calls.length).toBeLessThanOrEqual(60);
    // still the smallest header: defaults gone, every option and rule kept
    const fields = header.fields as Record<string, unknown>[];
    expect(fields[0]!.required).toBeUndefined();
    expect((fields[0]!.options as unknown[]).length).toBe(300);
    expect(((fields[1]!.show_if as { any: unknown[] }).any as unknown[]).length).toBe(300);
  });

  it("edits a file of many lines without a table of lines × lines", () => {
    const text = `---\ntitle:   Long\nslug: long\n${"#\n".repeat(8000)}fields:\n  - id: a\n    type: text\n---\n`;
    const parsed = parseFormFile(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    let cells = 0;
    const Counted = class extends Uint32Array {
      constructor(length: number) {
        super(length);
        cells += length;
      }
    };
    vi.stubGlobal("Uint32Array", Counted);
    const out = editFormFile(text, { ...parsed.form, title: "Longer" });
    vi.unstubAllGlobals();
    expect(cells).toBeLessThanOrEqual(2 * MAX_CELLS);
    // the change made, the author's comment lines kept
    const again = parseFormFile(out);
    expect(again.ok && again.form.title).toBe("Longer");
    expect(out.split("\n").filter((line) => line === "#").length).toBe(8000);
  });
});
