import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errorAnswer, errors, json, REFUSED, requestBody } from "../contracts/common.ts";
import { plan, testBody, testRun, versions } from "../contracts/forms.ts";
import { readJson } from "../http/body.ts";
import { testForm } from "../services/logic-tests.ts";
import { listVersions } from "../services/versions/history.ts";
import { planRequest } from "../services/versions/plan.ts";
import { answer, keyed } from "./operation.ts";

/** The 409 a change that would strand stored answers gets until it is confirmed. */
export const needsConfirmation = {
  409: errorAnswer(
    "`plan_needs_confirmation`: the change would leave stored answers unreachable; `details` is the plan. Confirm it (`?confirm=true`) or map the answers with `formerly`.",
  ),
};

/**
 * Versions, plans and logic tests (SPEC §16, §24): the history of a form, what a change would do,
 * and whether its logic does what its tests say.
 */
export function versionRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  app.get(
    "/api/forms/:slug/versions",
    op("listFormVersions", "A form's versions, newest first, each with the changes that made it", {
      200: json(versions),
      ...errors("Unauthorized", "Forbidden", "NotFound"),
    }),
    answer((account, slug) => listVersions(ctx, account, slug)),
  );
  app.post(
    "/api/forms/:slug/plan",
    op(
      "planFormChange",
      "What deploying a change would do, with the stored answers each change touches; changes nothing",
      { 200: json(plan), ...REFUSED },
      {
        description:
          "Body: what a PATCH takes (merged into the live definition), a whole definition (it states `slug`), or `{content}` / `{markdown}`: a form file; with `translations` as deploy sends them, the plan lists each language added, changed or removed (SPEC §20). Works for a slug that does not exist yet (`form_created`).",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    ),
    answer(async (account, slug, c) => planRequest(ctx, account, slug, await readJson(c))),
  );
  app.post(
    "/api/forms/:slug/test",
    op(
      "testFormLogic",
      "Run logic test cases on the live definition or a proposed one; changes nothing",
      { 200: json(testRun), ...REFUSED },
      {
        description:
          "Body `{cases, definition?}` (or `markdown`, a form file): each case `{name, answers, hidden?, expect: {ending?, shown?, hidden_fields?, variables?, valid?}}` (SPEC §24) runs on the same core as the page and `formdown test`. Without `cases`, the definition's own `tests`. A proposed definition may be for a slug that does not exist yet.",
        requestBody: requestBody(testBody),
      },
    ),
    answer(async (account, slug, c) => testForm(ctx, account, slug, await readJson(c))),
  );
}
