// Logic tests against the server's definitions (SPEC §24): `POST /api/forms/{slug}/test` and MCP
// test_form run cases on the live definition, or on a proposed one (`definition`, or a form
// file as `markdown`), with the same core as `formdown test` and the page.
import { z } from "zod";
import { raise } from "../../src/core/errors.ts";
import { type CaseResult, type CaseRun, runCase } from "../../src/core/logic/cases.ts";
import { type TestCase, testCaseSchema } from "../../src/core/logic/logic-schema.ts";
import { logicWeight, TURN_STEPS } from "../../src/core/logic/weight.ts";
import type { Form } from "../../src/core/schema.ts";
import { formatPath } from "../../src/core/validate-form.ts";
import type { AppContext } from "../context.ts";
import { ownTurn } from "../http/body.ts";
import type { Account } from "./accounts.ts";
import { definitionFrom } from "./form-files.ts";
import { ownedFormHead } from "./form-view.ts";

/** Cases in one request at most (a form file's tests: may hold as many). */
export const MAX_CASES = 1000;

const cases = z.array(testCaseSchema).max(MAX_CASES);

/** The cases of a request body, or 400 with each problem at its path (`cases[2].expect`). */
function readCases(value: unknown, fallback: TestCase[] | undefined): TestCase[] {
  if (value === undefined && fallback?.length) return fallback;
  if (value === undefined)
    raise("validation_failed", "Give `cases`: [{name, answers, expect}].", {
      details: [{ field: "cases", message: "is required (the form has no tests of its own)" }],
    });
  const parsed = cases.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.slice(0, 100).map((i) => ({
    field: formatPath(["cases", ...i.path]),
    message: i.message,
  }));
  return raise("validation_failed", "The test cases are not valid.", { details });
}

/**
 * The work of the cases of one request at most, in steps of a walk (logic/weight.ts): a form's
 * variables hold up to 256 KB of expressions, a walk of such a form takes 80 ms, and 1,000
 * cases held the event loop 77 s. About half a second of one core.
 */
export const MAX_TEST_WORK = 1_000_000;

/** Runs test cases on a form's live definition, or on the one given (a form that may not exist yet). */
export async function testForm(
  ctx: AppContext,
  account: Account,
  slug: string,
  body: unknown,
): Promise<CaseRun> {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  let form: Form;
  if (b.definition !== undefined || b.markdown !== undefined) {
    form = definitionFrom(b.markdown !== undefined ? { markdown: b.markdown } : b.definition);
    if (form.slug !== slug)
      raise("invalid_request", `The definition's slug "${form.slug}" is not "${slug}".`);
  } else form = (await ownedFormHead(ctx, account, slug)).definition;
  const run = readCases(b.cases, form.tests);
  // the compile below reads every expression (60 ms for the heaviest): a turn of its own too
  await ownTurn();
  const weight = logicWeight(form);
  if (run.length * weight > MAX_TEST_WORK) {
    const most = Math.max(1, Math.floor(MAX_TEST_WORK / weight));
    raise(
      "validation_failed",
      `This form's logic takes ${weight} steps a case: send at most ${most} cases a request (${run.length} were given), in several requests.`,
      { details: [{ field: "cases", message: `at most ${most} for this form` }] },
    );
  }
  return runInTurns(form, run, weight);
}

/**
 * The cases, letting the event loop go before each turn's worth of walks (TURN_STEPS). A request
 * stays within MAX_TEST_WORK, but thirty of them (or a batch of MCP calls) resumed in one turn
 * and ran back to back: 30 `read` requests of a heavy form held the loop 6 s (third review).
 */
async function runInTurns(form: Form, run: TestCase[], weight: number): Promise<CaseRun> {
  const results: CaseResult[] = [];
  let work = 0;
  for (const test of run) {
    if (work + weight > TURN_STEPS) {
      await ownTurn();
      work = 0;
    }
    results.push(runCase(form, test));
    work += weight;
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed };
}
