import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { findForm } from "./form-view.ts";
import { hit } from "./rate-limit.ts";

/** Page beacons: `view` when the page shows, `start` at the first answer. One counter row a day. */
export async function recordEvent(
  ctx: AppContext,
  slug: string,
  type: unknown,
  ip: string | undefined,
) {
  if (type !== "view" && type !== "start") {
    raise("validation_failed", 'type must be "view" or "start".', {
      details: [{ field: "type", message: 'must be "view" or "start"' }],
    });
  }
  const form = await findForm(ctx, slug);
  if (!form) raise("not_found", `No form with the slug "${slug}".`);
  hit(ctx, `event:${ip ?? "-"}`, ctx.config.rateSubmit);
  const column = type === "view" ? "views" : "starts";
  await ctx.db.query(
    `insert into form_events (form_id, day, ${column}) values ($1, (now() at time zone 'utc')::date, 1)
     on conflict (form_id, day) do update set ${column} = form_events.${column} + 1`,
    [form!.id],
  );
}
