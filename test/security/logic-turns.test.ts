// Review of 2026-11-28 (docs/security-review.md): one walk of a heavy form's logic took
// 80-100 ms (variables of 256 KB of expressions, since bounded by MAX_EXPRESSION_NODES; a walk
// is still up to MAX_WALK_STEPS), and the bounds of the last review hold one request's walks; but requests that resume together ran theirs back to back. Thirty `read`
// requests of POST /api/forms/heavy/test held the event loop 6 s, thirty test_form calls in one
// MCP batch 2.8 s, thirty anonymous submits 1.2 s. Each walk of a heavy form, and each tool call,
// now waits for a turn of the event loop of its own (http/body.ts ownTurn). Counted here in turns
// of the loop at which concurrent calls finish (they all finished in one), not in milliseconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../../functions/mcp/server.ts";
import { type Account, accountForKey } from "../../functions/services/accounts.ts";
import { definitionFrom } from "../../functions/services/form-files.ts";
import { testForm } from "../../functions/services/logic-tests.ts";
import { checkedAnswers } from "../../functions/services/submit-answer.ts";
import { heavyForm } from "../helpers/heavy-form.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** The most variables allowed and an ending's rules: a walk of close to MAX_WALK_STEPS. */
const heavy = heavyForm("heavy");
const cases = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `c${i}`, answers: { a: i }, expect: {} }));

/** The turn of the event loop at which each call finished, all started together. */
async function turnsOfEach(calls: (() => Promise<unknown>)[]): Promise<number[]> {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return await Promise.all(calls.map((call) => call().then(() => turn)));
  } finally {
    ticking = false;
  }
}

describe("walks of a heavy form's logic, started together", () => {
  let s: TestServer;
  let account: Account;
  beforeAll(async () => {
    s = await startTestServer();
    account = (await accountForKey(s.ctx, s.apiKey))!;
  });
  afterAll(() => s?.close());

  it("runs logic tests (REST and test_form) a walk a turn", async () => {
    const run = () => testForm(s.ctx, account, "heavy", { definition: heavy, cases: cases(2) });
    const turns = await turnsOfEach([run, run, run]);
    // three calls of two walks: none finished in the turn of another, the last after six turns
    expect(new Set(turns).size).toBe(3);
    expect(Math.max(...turns)).toBeGreaterThanOrEqual(6);
    expect(await run()).toMatchObject({ passed: 2, failed: 0 });
  });

  it("walks concurrent submits' answers a turn each", async () => {
    const form = definitionFrom(heavy);
    const check = (a: number) => () => checkedAnswers(form, { a }, undefined);
    const turns = await turnsOfEach([check(1), check(2), check(3), check(4)]);
    expect(new Set(turns).size).toBe(4);
    const { payload, recorded } = await checkedAnswers(form, { a: 2 }, undefined);
    expect(payload).toEqual({ a: 2 });
    expect(JSON.parse(recorded.variables!)).toMatchObject({ v0: 666 });
  });

  it("runs each tool call of an MCP batch in a turn of its own", async () => {
    const validate = () => callTool(s.ctx, account, "validate_form", { definition: heavy });
    const turns = await turnsOfEach([validate, validate, validate]);
    expect(new Set(turns).size).toBe(3);
    const answer = await validate();
    expect(answer.structuredContent).toMatchObject({ valid: true });
  });
});
