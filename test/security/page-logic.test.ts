// Tenth review, part B (2026-11-28, left open): a page carries its form's logic compiled, as JSON
// nodes (`{"k":"op","op":"*","a":…}`), about 34 characters for each name or operator of the text.
// 370 variables of `a*a*…*a` (333 factors, a valid 250 KB form, any account's key) made an 8.45 MB
// page on each anonymous view, which held the event loop 0.67-1.69 s (five views at once kept
// /api/health waiting 3.2 s). And a step's condition was written out once on each page its step
// names: 100 rules of 2,000 characters on 250 pages (a 220 KB form) were 51 MB of JSON. A form's
// variables now compile to at most MAX_EXPRESSION_NODES, and its steps' conditions, counted on
// each page they name, are at most MAX_PAGE_CONDITIONS characters, so the largest page logic any
// valid form carries is about 1.5 MB.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { pageLogic } from "../../src/core/logic/uses-logic.ts";
import {
  MAX_EXPRESSION_NODES,
  MAX_PAGE_CONDITIONS,
  MAX_WALK_STEPS,
} from "../../src/core/logic/weight.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { heaviestPageForm, PRODUCT } from "../helpers/heavy-form.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** The tenth review's form: 370 variables of 333 factors. */
const variables = {
  title: "Vars",
  slug: "vars",
  humanness: false,
  fields: [{ id: "a", type: "number", label: "A" }],
  variables: Array.from({ length: 370 }, (_, i) => ({ id: `v${i}`, value: PRODUCT })),
};

/** A step's condition of `rules` rules of `chars` characters, on 250 pages. */
const steps = (rules: number, chars: number) => ({
  title: "Steps",
  slug: "steps",
  humanness: false,
  steps: [
    {
      id: 2,
      show_if: {
        any: Array.from({ length: rules }, () => ({
          field: "t",
          op: "eq",
          value: "x".repeat(chars),
        })),
      },
    },
  ],
  fields: Array.from({ length: 500 }, (_, i) => ({
    id: i === 0 ? "t" : `f${i}`,
    type: "text",
    label: "F",
    step: i % 2 === 0 ? 1 : 2,
  })),
});

/** A definition as a form file (YAML is a superset of JSON: one key a line). */
const file = (definition: Record<string, unknown>) =>
  `---\n${Object.entries(definition)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join("\n")}\n---\n`;

const pageLogicChars = (definition: object) => {
  const result = validateForm(definition);
  if (!result.ok) throw new Error(JSON.stringify(result.failure).slice(0, 500));
  return JSON.stringify(pageLogic(result.value as Form)).length;
};

describe("the logic a page carries", () => {
  it("refuses the variables past MAX_EXPRESSION_NODES, at the variable that passes it", () => {
    const refused = validateForm(variables);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const at = Math.floor(MAX_EXPRESSION_NODES / 665);
    expect(refused.failure.details).toEqual([
      {
        field: `variables[${at}].value`,
        message: expect.stringMatching(
          new RegExp(
            `compile to ${(at + 1) * 665} expression nodes.*at most ${MAX_EXPRESSION_NODES}`,
          ),
        ),
      },
    ]);
    // one variable fewer fits
    expect(validateForm({ ...variables, variables: variables.variables.slice(0, at) }).ok).toBe(
      true,
    );
  });

  it("counts a step's condition on each page its step names, and refuses past the bound", () => {
    const refused = validateForm(steps(100, 2000));
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain(`at most ${MAX_PAGE_CONDITIONS}`);
    expect(JSON.stringify(refused)).toContain(`"field":"steps[0].show_if"`);
    // what fits is written out 250 times, and no more than the bound
    const fits = steps(1, Math.floor(MAX_PAGE_CONDITIONS / 250) - 60);
    const chars = pageLogicChars(fits);
    expect(chars).toBeGreaterThan(MAX_PAGE_CONDITIONS * 0.9);
    expect(chars).toBeLessThan(MAX_PAGE_CONDITIONS * 1.1);
  });

  it("refuses a form file past the bounds too, at the key's line", () => {
    // files (deploys, the branch watcher, {markdown} bodies, formdown validate) had no logic check
    const refused = parseFormFile(file(variables), "vars.md");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors).toEqual([
      expect.objectContaining({
        line: 6,
        path: `variables[${Math.floor(MAX_EXPRESSION_NODES / 665)}].value`,
        message: expect.stringContaining(`at most ${MAX_EXPRESSION_NODES}`),
      }),
    ]);
    const pages = parseFormFile(file(steps(100, 2000)), "steps.md");
    expect(pages.ok || pages.errors[0]).toMatchObject({ line: 5, path: "steps[0].show_if" });
    const walk = parseFormFile(file(steps(1000, 1)), "walk.md");
    expect(walk.ok || walk.errors[0]).toMatchObject({
      line: 1,
      path: "(logic)",
      message: expect.stringContaining(`at most ${MAX_WALK_STEPS}`),
    });
  });

  it("is at most about 1.5 MB for the heaviest form the bounds allow", () => {
    const chars = pageLogicChars(heaviestPageForm("heaviest"));
    expect(chars).toBeGreaterThan(1_000_000);
    expect(chars).toBeLessThan(1_600_000);
  });
});

describe.each(DB_KINDS)("a page of the heaviest logic allowed (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    await ensurePagesBuilt();
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  }, 180_000);
  afterAll(() => s?.close());

  it("refuses the tenth review's variables over REST with the reason", async () => {
    const res = await api("POST", "/api/forms", { body: variables });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    expect(res.body.details[0]).toMatchObject({
      field: expect.stringMatching(/^variables\[\d+\]\.value$/),
      message: expect.stringContaining(`at most ${MAX_EXPRESSION_NODES}`),
    });
  });

  it("refuses them in a form file with the line", async () => {
    const res = await api("POST", "/api/forms", { body: { markdown: file(variables) } });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    expect(res.body.details[0]).toMatchObject({
      field: expect.stringMatching(/^variables\[\d+\]\.value$/),
      message: expect.stringMatching(new RegExp(`^line 6: .*at most ${MAX_EXPRESSION_NODES}`)),
    });
  });

  it("draws the heaviest allowed form's page in at most about 2 MB", async () => {
    const definition = heaviestPageForm("heaviest");
    const made = await api("POST", "/api/forms", { body: definition });
    expect(made.status, JSON.stringify(made.body).slice(0, 500)).toBe(201);
    const page = await fetch(`${s.url}/@me/heaviest`, {
      headers: { "accept-encoding": "identity" },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('"k":"op"');
    // 8.45 MB from 370 variables before; now at most ~35 characters a name or operator, bounded
    expect(html.length).toBeLessThan(2_000_000);
    expect(html.length).toBeLessThan(40 * JSON.stringify(definition).length);
  });
});
