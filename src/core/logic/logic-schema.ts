// The logic keys of a form file (SPEC §24) as zod: conditions, jumps, steps, endings, variables
// and the logic tests. The rules that span the form (ids, order, types) are in logic-rules.ts.
import { z } from "zod";
import { endingSchema } from "../ending-schema.ts";
import { MAX_OPTIONS } from "../form-bounds.ts";
import { CONDITION_OPS, type Condition } from "./condition.ts";
import { MAX_EXPR } from "./expr.ts";

const ID = /^[a-z][a-z0-9_]*$/;
const snake = "must be snake_case: a lowercase letter, then lowercase letters, digits or _";

const SHAPES = "a condition is {field, op, value} or one group: {all: […]}, {any: […]} or {not: …}";

/** A condition, or a group of conditions, nested (one object type: its errors point at the key). */
export const conditionSchema: z.ZodType<Condition> = z
  .strictObject({
    /** An earlier field's id, a variable's id, or hidden.<name>. */
    field: z
      .string()
      .min(1)
      .optional()
      .describe("An earlier field's id, a variable, hidden.<name>"),
    op: z.enum(CONDITION_OPS).optional(),
    value: z.unknown().optional(),
    get all() {
      return z.array(conditionSchema).min(1).max(MAX_OPTIONS).optional();
    },
    get any() {
      return z.array(conditionSchema).min(1).max(MAX_OPTIONS).optional();
    },
    get not() {
      return conditionSchema.optional();
    },
  })
  .superRefine((c, ctx) => {
    const shapes = [c.field !== undefined || c.op !== undefined, c.all, c.any, c.not].filter(
      (x) => x !== undefined && x !== false,
    );
    if (shapes.length !== 1) return ctx.addIssue({ code: "custom", message: SHAPES });
    if (c.field === undefined && c.op === undefined) {
      if (c.value !== undefined)
        ctx.addIssue({ code: "custom", path: ["value"], message: "a group has no value" });
      return;
    }
    if (c.field === undefined)
      ctx.addIssue({ code: "custom", path: ["field"], message: "is required" });
    if (c.op === undefined) ctx.addIssue({ code: "custom", path: ["op"], message: "is required" });
    const bare = c.op === "answered" || c.op === "unanswered";
    if (bare && c.value !== undefined)
      ctx.addIssue({ code: "custom", path: ["value"], message: `"${c.op}" takes no value` });
  })
  .describe("{field, op, value} or {all: […]}, {any: […]}, {not: …}");

/** Where a jump goes: a later step (its label or number), a field that opens a page, or an ending. */
export const gotoSchema = z.union([z.string().min(1).max(80), z.number().int().positive()]);

/** A page of a multi-step form with a condition (`id`: its step, or the field that opens it). */
export const stepSchema = z.strictObject({
  id: gotoSchema.describe("The step (as in the fields' step), or the field opening the page"),
  show_if: conditionSchema,
});

/** An ending chosen by condition: the first whose condition holds (one without, last). */
export const endingsItemSchema = endingSchema.extend({
  id: z.string().regex(ID, snake).max(64).describe("Ending id, recorded on the response"),
  show_if: conditionSchema.optional(),
});

/** A computed value: `value` is an expression (SPEC §24), evaluated on the page and the server. */
export const variableSchema = z.strictObject({
  id: z.string().regex(ID, snake).max(64).describe("Variable id: {var:<id>} pipes it"),
  value: z
    .string()
    .min(1)
    .max(MAX_EXPR)
    .describe(
      "Expression: + - * / %, comparisons, and/or/not, if, sum, min, max, round, count, len",
    ),
  label: z.string().min(1).max(200).optional().describe("Name in exports and reports"),
});

/** One logic test (SPEC §24): answers in, the path and values expected out. */
export const testCaseSchema = z.strictObject({
  name: z.string().min(1).max(200),
  answers: z.record(z.string(), z.unknown()).default({}),
  hidden: z.record(z.string(), z.string()).optional(),
  expect: z.strictObject({
    ending: z.string().min(1).optional(),
    shown: z.array(z.string()).optional(),
    hidden_fields: z.array(z.string()).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    valid: z.boolean().optional(),
  }),
});
export type TestCase = z.output<typeof testCaseSchema>;
export type TestCaseInput = z.input<typeof testCaseSchema>;

/** The logic keys at the top of a form. */
export const logicKeys = {
  /** Conditions on whole pages. */
  steps: z
    .array(stepSchema)
    .max(MAX_OPTIONS)
    .optional()
    .describe("Pages shown only when a condition holds"),
  /** Endings chosen by condition; the first that holds is shown. */
  endings: z
    .array(endingsItemSchema)
    .min(1)
    .max(MAX_OPTIONS)
    .optional()
    .describe("Endings chosen by condition, first match wins"),
  /** Values computed from the answers, stored with each response. */
  variables: z
    .array(variableSchema)
    .max(MAX_OPTIONS)
    .optional()
    .describe("Computed values, stored with each response"),
  /** Logic tests, run by `formdown test` (also in `<slug>.test.yaml`). */
  tests: z.array(testCaseSchema).max(1000).optional().describe("Logic tests run by formdown test"),
};
