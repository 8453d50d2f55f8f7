// The uploaded files a submit's answers name: each must be a file uploaded to that form's field.
import { raise } from "../../src/core/errors.ts";
import type { Form } from "../../src/core/schema.ts";
import type { AppContext } from "../context.ts";

export function uploadUrls(form: Form, payload: Record<string, unknown>): string[] {
  return form.fields
    .filter((f) => f.type === "file" || f.type === "image")
    .flatMap((f) => (typeof payload[f.id] === "string" ? [payload[f.id] as string] : []));
}

export async function checkUploads(
  ctx: AppContext,
  row: { id: string },
  form: Form,
  payload: Record<string, unknown>,
  urls: string[],
) {
  const found = await ctx.db.query<{ url: string; field_id: string }>(
    "select url, field_id from uploads where form_id = $1 and url = any($2::text[])",
    [row.id, urls],
  );
  const details = form.fields
    .filter((f) => (f.type === "file" || f.type === "image") && typeof payload[f.id] === "string")
    .filter((f) => !found.some((u) => u.url === payload[f.id] && u.field_id === f.id))
    .map((f) => ({ field: f.id, message: "must be a file uploaded to this form's field" }));
  if (details.length > 0)
    raise("validation_failed", "An uploaded file is not from this form.", { details });
}
