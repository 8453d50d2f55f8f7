import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { clientBucket } from "../http/client-address.ts";
import { findPublicForm } from "./form-view.ts";
import { markOpened } from "./invites.ts";
import { hit } from "./rate-limit.ts";

const TYPES = ["view", "start", "progress"];

/**
 * Page beacons: `view` when the page shows, `start` at the first answer (one counter row a day),
 * `progress` with the id of a field the respondent reached (one counter row a day and field;
 * see migration 20261124000300). A beacon never carries an answer.
 */
export async function recordEvent(
  ctx: AppContext,
  slug: string,
  body: Record<string, unknown>,
  ip: string | undefined,
  /** A page built from files: the commit it was built at (form-address.ts). */
  built?: string,
) {
  const { type, field } = body;
  if (typeof type !== "string" || !TYPES.includes(type)) {
    raise("validation_failed", 'type must be "view", "start" or "progress".', {
      details: [{ field: "type", message: 'must be "view", "start" or "progress"' }],
    });
  }
  if (type === "progress" && (typeof field !== "string" || field === "")) {
    raise("validation_failed", "A progress event names the field reached.", {
      details: [{ field: "field", message: "must be the id of the furthest field reached" }],
    });
  }
  const form = await findPublicForm(ctx, slug, built);
  if (!form) raise("not_found", `No form with the slug "${slug}".`);
  // a page built before a rename (within the version grace, SPEC §16) names the field by its
  // earlier id: counted under the id it has now, where the drop-off reads it
  const reached =
    type === "progress"
      ? form!.definition.fields.find(
          (f) =>
            f.type !== "statement" &&
            (f.id === field ||
              ((f as { formerly?: string[] }).formerly ?? []).includes(field as string)),
        )?.id
      : undefined;
  if (type === "progress" && !reached)
    raise("validation_failed", `"${String(field)}" is not a question of this form.`, {
      details: [{ field: "field", message: "must be the id of a question of this form" }],
    });
  hit(ctx, `event:${clientBucket(ip)}`, ctx.config.rateSubmit);
  if (type === "view" && body.invite !== undefined) await markOpened(ctx, form!.id, body.invite);
  if (type === "progress") {
    await ctx.db.query(
      `insert into form_progress (form_id, day, field, reached) values ($1, (now() at time zone 'utc')::date, $2, 1)
       on conflict (form_id, day, field) do update set reached = form_progress.reached + 1`,
      [form!.id, reached],
    );
    return;
  }
  const column = type === "view" ? "views" : "starts";
  await ctx.db.query(
    `insert into form_events (form_id, day, ${column}) values ($1, (now() at time zone 'utc')::date, 1)
     on conflict (form_id, day) do update set ${column} = form_events.${column} + 1`,
    [form!.id],
  );
}
