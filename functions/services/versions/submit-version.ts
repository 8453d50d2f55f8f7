import { raise } from "../../../src/core/errors.ts";
import type { Form } from "../../../src/core/schema.ts";
import type { AppContext } from "../../context.ts";
import { versionOf } from "./history.ts";

interface Live {
  id: string;
  version: number;
  definition: Form;
}

/** Versions no longer live, by form and number: they never change once retired. */
const retired = new Map<string, { definition: Form; retired_at: string }>();

const changed = () =>
  raise(
    "form_changed",
    "This form was updated after the page was loaded. Reload the page to answer the current version; the answers given so far are kept.",
  );

/**
 * The version a submit is validated against (SPEC §16 "Pages and API out of step"): the one the
 * page was built from (`version` in the body) while it is live, or within the grace period after
 * it stopped being live; without one, the live version. Later, or unknown: 409 `form_changed`.
 * A version newer than the cached live one means another instance deployed it: `reread` once.
 */
export async function answeringVersion(
  ctx: AppContext,
  row: Live,
  given: unknown,
  reread: () => Promise<Live | null>,
): Promise<{ version: number; definition: Form }> {
  if (given === undefined || given === null || given === row.version)
    return { version: row.version, definition: row.definition };
  if (typeof given !== "number" || !Number.isInteger(given) || given < 1)
    return raise("invalid_request", "version must be the form version the page was built from.");
  if (given > row.version) {
    const now = await reread();
    if (now?.version === given) return { version: given, definition: now.definition };
    return changed();
  }
  const key = `${row.id}:${given}`;
  let past = retired.get(key);
  if (!past) {
    const found = await versionOf(ctx, row.id, given);
    if (!found?.retired_at) return changed();
    past = { definition: found.definition, retired_at: found.retired_at };
    if (retired.size > 1000) retired.delete(retired.keys().next().value!);
    retired.set(key, past);
  }
  const until = Date.parse(past.retired_at) + ctx.config.versionGrace * 1000;
  if (Date.now() > until) return changed();
  return { version: given, definition: past.definition };
}
