// Logic tests as code (SPEC §24): each case gives answers (and hidden values) and says what the
// path must be — the ending, fields shown or hidden, variables' values, whether the answers are
// valid. Run on the same walk as the page and the server, offline (`formdown test`) or against
// the live or a proposed definition (`POST /api/forms/{slug}/test`, MCP test_form).
import type { Field } from "../field-schema.ts";
import { deepEqual } from "../show-if.ts";
import { validateAnswers } from "../validate-answers.ts";
import type { LogicForm } from "./compiled.ts";
import type { TestCase } from "./logic-schema.ts";
import { keptHidden, walkedAnswers } from "./respond.ts";
import { walk } from "./walk.ts";

export interface CaseFailure {
  /** What differs: `ending`, `shown.<id>`, `hidden_fields.<id>`, `variables.<id>`, `valid`. */
  path: string;
  expected: unknown;
  got: unknown;
}

export interface CaseResult {
  name: string;
  passed: boolean;
  failures: CaseFailure[];
}

export interface CaseRun {
  results: CaseResult[];
  passed: number;
  failed: number;
}

type TestForm = LogicForm & { fields: Field[]; hidden?: string[] };

/** YAML reads an unquoted 2026-01-01 as a Date: a date answer is its ISO day. */
const answerValue = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);

export function runCase(form: TestForm, test: TestCase): CaseResult {
  const answers = Object.fromEntries(
    Object.entries(test.answers).map(([k, v]) => [k, answerValue(v)]),
  );
  // as a submit's: texts one past what the field takes, hidden values 500 characters
  const path = walk(form, walkedAnswers(form, answers), keptHidden(form.hidden, test.hidden));
  const failures: CaseFailure[] = [];
  const shown = new Set(path.shown.map((f) => f.id));
  const known = new Set(form.fields.map((f) => f.id));
  const { expect } = test;
  if (expect.ending !== undefined && expect.ending !== path.ending)
    failures.push({ path: "ending", expected: expect.ending, got: path.ending });
  for (const id of expect.shown ?? [])
    if (!shown.has(id))
      failures.push({
        path: `shown.${id}`,
        expected: "shown",
        got: known.has(id) ? "hidden" : "not a field",
      });
  for (const id of expect.hidden_fields ?? [])
    if (shown.has(id) || !known.has(id))
      failures.push({
        path: `hidden_fields.${id}`,
        expected: "hidden",
        got: known.has(id) ? "shown" : "not a field",
      });
  for (const [id, want] of Object.entries(expect.variables ?? {})) {
    const got = Object.hasOwn(path.variables, id) ? path.variables[id] : "not a variable";
    if (!deepEqual(got, want)) failures.push({ path: `variables.${id}`, expected: want, got });
  }
  if (expect.valid !== undefined) {
    const result = validateAnswers(form, answers, test.hidden ?? {}, path.shown);
    if (result.ok !== expect.valid) {
      const why = result.ok
        ? []
        : (result.failure.details ?? []).map((d) => `${d.field} ${d.message}`);
      failures.push({
        path: "valid",
        expected: expect.valid,
        got: result.ok ? true : `false (${why.slice(0, 3).join("; ")})`,
      });
    }
  }
  return { name: test.name, passed: failures.length === 0, failures };
}

export function runCases(form: TestForm, tests: readonly TestCase[]): CaseRun {
  const results = tests.map((t) => runCase(form, t));
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed };
}
