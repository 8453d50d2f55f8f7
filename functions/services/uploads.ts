import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { capped } from "../streams.ts";
import { findForm } from "./form-view.ts";
import { hit } from "./rate-limit.ts";

function accepts(accept: string[] | undefined, type: string): boolean {
  if (!accept || accept.length === 0) return true;
  return accept.some((a) => (a.endsWith("/*") ? type.startsWith(a.slice(0, -1)) : a === type));
}

const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^\.+/, "")
    .slice(-80) || "file";

/** The multipart request an upload arrives in, read only once the form allows its size. */
export interface UploadRequest {
  contentType: string;
  contentLength: number | null;
  body: ReadableStream<Uint8Array> | null;
}

/** Room for the multipart boundaries and the `field` part around the file itself. */
const MULTIPART_SLACK = 64 * 1024;

/** Stores a file for a form's file/image field and answers the URL the submit must carry. */
export async function upload(
  ctx: AppContext,
  slug: string,
  request: UploadRequest,
  ip: string | undefined,
) {
  const form = await findForm(ctx, slug);
  if (!form) return raise("not_found", `No form with the slug "${slug}".`);
  hit(ctx, `upload:${ip ?? "-"}`, ctx.config.rateSubmit);
  const largest = Math.max(
    0,
    ...form.definition.fields.map((f) =>
      f.type === "file" || f.type === "image" ? f.max_mb * 1024 * 1024 : 0,
    ),
  );
  if (largest === 0) raise("validation_failed", "This form has no file or image field.");
  const limit = largest + MULTIPART_SLACK;
  if (request.contentLength !== null && request.contentLength > limit)
    raise("payload_too_large", `The upload is over ${largest / 1024 / 1024} MB.`);
  let tooLarge = false;
  let data: FormData;
  try {
    const body = request.body
      ? capped(request.body, limit, () => {
          tooLarge = true;
        })
      : null;
    data = await new Response(body, {
      headers: { "content-type": request.contentType },
    }).formData();
  } catch {
    if (tooLarge) raise("payload_too_large", `The upload is over ${largest / 1024 / 1024} MB.`);
    return raise("invalid_request", "The multipart body cannot be read.");
  }
  const fieldId = data.get("field");
  const file = data.get("file");
  const field = form.definition.fields.find((f) => f.id === fieldId);
  if (!field || (field.type !== "file" && field.type !== "image")) {
    raise("validation_failed", "field must name a file or image field of this form.", {
      details: [{ field: "field", message: "is not a file or image field" }],
    });
  }
  if (!(file instanceof File)) {
    return raise("validation_failed", "Send the file as multipart field `file`.", {
      details: [{ field: "file", message: "is missing" }],
    });
  }
  const f = field as { id: string; type: "file" | "image"; accept?: string[]; max_mb: number };
  if (file.size > f.max_mb * 1024 * 1024)
    raise("payload_too_large", `The file is over ${f.max_mb} MB.`);
  const type = file.type || "application/octet-stream";
  const accept = f.accept ?? (f.type === "image" ? ["image/*"] : undefined);
  if (!accepts(accept, type)) {
    raise("validation_failed", `This field accepts ${accept!.join(", ")}.`, {
      details: [{ field: f.id, message: `accepts ${accept!.join(", ")}` }],
    });
  }
  const key = `${form.id}/${crypto.randomUUID()}/${safeName(file.name)}`;
  await ctx.storage.put(key, new Uint8Array(await file.arrayBuffer()), type);
  const url = `${ctx.config.baseUrl}/api/uploads/${key}`;
  await ctx.db.query(
    "insert into uploads (form_id, field_id, storage_key, url, content_type, size_bytes) values ($1, $2, $3, $4, $5, $6)",
    [form.id, f.id, key, url, type, file.size],
  );
  return { url };
}

/** Files no submission references within 24 h are deleted. */
export async function sweepUploads(ctx: AppContext): Promise<number> {
  const stale = await ctx.db.query<{ id: string; storage_key: string }>(
    "delete from uploads where response_id is null and created_at < now() - interval '24 hours' returning id, storage_key",
  );
  for (const u of stale) await ctx.storage.remove(u.storage_key).catch(() => {});
  return stale.length;
}
