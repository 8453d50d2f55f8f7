// Test answers (SPEC §16): sent with the owner's own key, or from the form's preview page (its
// token in the body as `preview`). Validated like any answer, stored flagged `test` with seq 0 (the
// form's sequence untouched, so counts and milestones stay the real ones), and nothing is sent
// for them: no anti-bot token asked, no email row, no webhook delivery.
import { raise } from "../../src/core/errors.ts";
import { constantTimeEqual } from "../crypto.ts";
import type { FormRow } from "./form-view.ts";

type TestRow = Pick<FormRow, "account_id" | "preview_token" | "draft">;

interface TestInput {
  body: Record<string, unknown>;
  accountId?: string | undefined;
}

/**
 * Whether a submit is a test answer, and whose: the owner's (its key) or a preview page's (its
 * token). A key of another account is refused rather than ignored; a preview token only works
 * while the form is a draft (SPEC §23 "Previews are drafts' only"). The owner's key with
 * `test: false` sends a real response (an agent collecting answers for its owner).
 */
export function testAnswer(row: TestRow, input: TestInput): "owner" | "preview" | false {
  if (input.accountId !== undefined) {
    if (input.accountId !== row.account_id)
      raise("forbidden", "This API key does not own the form; submit without it.");
    // the owner means a real response when they say so (`test: false`): counted and notified
    return input.body.test === false ? false : "owner";
  }
  const preview = input.body.preview;
  if (preview === undefined) return false;
  if (!isPreviewToken(row, preview))
    raise("access_denied", "The preview link is not this form's (or no longer valid).");
  return "preview";
}

/** Whether `given` is the preview token of `row`, a draft. */
export const isPreviewToken = (row: Pick<FormRow, "draft" | "preview_token">, given: unknown) =>
  row.draft &&
  typeof given === "string" &&
  !!row.preview_token &&
  constantTimeEqual(given, row.preview_token);
