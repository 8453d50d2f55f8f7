// Eleventh review, part B (2026-11-28): a change through REST or MCP edits the form's file in
// place with the `yaml` package, whose parse and prints of a dense flow-style header are each a
// few hundred milliseconds (5 selects of 1,000 options and 495 text fields in flow maps, 164 KB,
// any account's key): `PATCH {title}` held the event loop 1.3–3.2 s in one piece at load 8. The
// edit now yields between those steps (`editSteps`), and the server lets the loop turn at each
// (services/form-files.ts); counted here in steps, not in milliseconds.
import { describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { editFormFile, editSteps } from "../../src/core/form-write.ts";

const options = (f: number) => Array.from({ length: 1000 }, (_, i) => `o${f}x${i}`).join(", ");
const formerly = Array.from({ length: 24 }, (_, k) => `a${k}`).join(", ");
const selects = Array.from(
  { length: 5 },
  (_, i) => `  - {id: s${i}, type: select, label: L, options: [${options(i)}]}`,
);
const texts = Array.from(
  { length: 495 },
  (_, i) =>
    `  - {id: g${i}, type: text, label: L, required: true, placeholder: p, max_length: 5, min_length: 1, description: d, formerly: [${formerly}], prefill: true}`,
);
const dense = `---\ntitle:   T\nslug: t\nfields:\n${[...selects, ...texts].join("\n")}\n---\n`;

describe("an edit of a dense form file", () => {
  it("yields between the parse and each print of its header, and writes what one piece did", () => {
    const parsed = parseFormFile(dense);
    if (!parsed.ok) throw new Error("the dense file is a form");
    const after = { ...parsed.form, title: "Changed" };
    const steps = editSteps(dense, after);
    let yields = 0;
    let out: string | undefined;
    for (;;) {
      const step = steps.next();
      if (step.done) {
        out = step.value;
        break;
      }
      yields++;
    }
    // the parse, the two prints, the edit and the carry-over each end a step
    expect(yields).toBeGreaterThanOrEqual(5);
    expect(out).toBe(editFormFile(dense, after));
    expect(out.startsWith("---\ntitle:   Changed\nslug: t\n")).toBe(true);
    const back = parseFormFile(out);
    expect(back.ok && back.form.fields.length).toBe(500);
  });
});
