import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { findForm } from "./form-view.ts";
import { hit } from "./rate-limit.ts";

const TYPES = ["view", "start", "progress"] as const;
const today = "(now() at time zone 'utc')::date";

/**
 * Page beacons: `view` when the page shows, `start` at the first answer, `progress` with the
 * furthest field a respondent reached (no answer travels with it). One counter row a day, per
 * field for progress.
 */
export async function recordEvent(
  ctx: AppContext,
  slug: string,
  type: unknown,
  ip: string | undefined,
  field?: unknown,
) {
  if (!TYPES.includes(type as (typeof TYPES)[number])) {
    raise("validation_failed", 'type must be "view", "start" or "progress".', {
      details: [{ field: "type", message: 'must be "view", "start" or "progress"' }],
    });
  }
  const form = await findForm(ctx, slug);
  if (!form) raise("not_found", `No form with the slug "${slug}".`);
  if (type === "progress" && !form!.definition.fields.some((f) => f.id === field)) {
    raise("validation_failed", "field must name a field of this form.", {
      details: [{ field: "field", message: "must be the id of a field of this form" }],
    });
  }
  await hit(ctx.db, `event:${ip ?? "-"}`, ctx.config.rateSubmit);
  if (type === "progress") {
    await ctx.db.query(
      `insert into form_progress (form_id, day, field, reached) values ($1, ${today}, $2, 1)
       on conflict (form_id, day, field) do update set reached = form_progress.reached + 1`,
      [form!.id, field],
    );
    return;
  }
  const column = type === "view" ? "views" : "starts";
  await ctx.db.query(
    `insert into form_events (form_id, day, ${column}) values ($1, ${today}, 1)
     on conflict (form_id, day) do update set ${column} = form_events.${column} + 1`,
    [form!.id],
  );
}
