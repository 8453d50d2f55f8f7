import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { clientBucket } from "../http/client-address.ts";
import { type FilePart, type FormParts, FormPartsError, formParts } from "../http/form-parts.ts";
import { type FormRow, findPublicForm, formStatus } from "./form-view.ts";
import { checkInvite } from "./invite-check.ts";
import { hit } from "./rate-limit.ts";
import { checkAccess, checkAntiBot, needsAntiBot } from "./respondent-access.ts";
import { isPreviewToken } from "./submit-test.ts";

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

/** Room for the multipart boundaries and the text parts around the file itself. */
const MULTIPART_SLACK = 64 * 1024;
/** The text parts an upload may carry before its file. */
const TEXT_PARTS = ["field", "access", "turnstile_token", "preview", "invite"];

type FileField = { id: string; type: "file" | "image"; accept?: string[]; max_mb: number };

/**
 * Stores a file for a form's file/image field and answers the URL the submit must carry
 * (SPEC §5, §19). The upload obeys the form as a submit does: a closed form, a wrong password or
 * link token, or (with `humanness`) a missing anti-bot token is refused before a byte is stored.
 * The multipart body is read as a stream: `field`, `access` and `turnstile_token` come first,
 * then `file`, whose bytes go to storage as they arrive and are cut off at the field's `max_mb`
 * (413), so memory never holds the file.
 */
export async function upload(
  ctx: AppContext,
  slug: string,
  request: UploadRequest,
  ip: string | undefined,
  /** The account of the API key sent with it, if any: its owner's uploads are test ones. */
  accountId?: string,
  /** A page built from files: the commit it was built at (form-address.ts). */
  built?: string,
) {
  hit(ctx, `upload:${clientBucket(ip)}`, ctx.config.rateSubmit);
  const form = await findPublicForm(ctx, slug, built);
  if (!form) return raise("not_found", `No form with the slug "${slug}".`);
  if (accountId !== undefined && accountId !== form.account_id)
    raise("forbidden", "This API key does not own the form; upload without it.");
  const owner = accountId !== undefined;
  if (formStatus(form) === "closed" || (form.access_mode === "closed" && !owner))
    raise("form_closed", "This form is closed and no longer accepts responses.");
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
  if (!request.body)
    return raise(
      "invalid_request",
      "Send the upload as multipart/form-data with `field` and `file`.",
    );
  const multipart = formParts(request.body, request.contentType, {
    maxTotalSize: limit,
    maxFieldSize: 4096,
    maxParts: 64,
    // only `file` with a file name is streamed; any other part is a short text
    isFile: (info) => info.name === "file" && info.filename !== undefined,
  });
  try {
    return await readUpload(ctx, form.slug, form, multipart, ip, owner);
  } catch (error) {
    const failure = multipart.failure();
    if (failure?._tag === "InvalidBoundary")
      raise("invalid_request", "Send the upload as multipart/form-data with `field` and `file`.");
    if (failure?._tag === "ReachedLimit" && failure.limit === "MaxTotalSize")
      raise("payload_too_large", `The upload is over ${largest / 1024 / 1024} MB.`);
    if (failure || error instanceof FormPartsError)
      raise("invalid_request", "The multipart body cannot be read.");
    throw error;
  } finally {
    await multipart.parts.return(undefined);
  }
}

async function readUpload(
  ctx: AppContext,
  slug: string,
  form: FormRow,
  multipart: FormParts,
  ip: string | undefined,
  owner: boolean,
) {
  const text: Record<string, string> = {};
  for await (const part of multipart.parts) {
    if (part.kind === "field") {
      if (TEXT_PARTS.includes(part.name)) text[part.name] = part.value;
      continue;
    }
    const field = form.definition.fields.find((f) => f.id === text.field);
    if (!field || (field.type !== "file" && field.type !== "image")) {
      raise(
        "validation_failed",
        "field must name a file or image field of this form, before file.",
        {
          details: [{ field: "field", message: "is not a file or image field" }],
        },
      );
    }
    if (!owner) await admitUpload(ctx, slug, form, text, ip);
    // awaited here: leaving the loop first would cancel the request under the file's stream
    return await store(ctx, form, field as FileField, part);
  }
  return raise("validation_failed", "Send the file as multipart field `file`.", {
    details: [{ field: "file", message: "is missing" }],
  });
}

/**
 * As a submit (SPEC §19, §23): a draft only from its preview page (the token as `preview`), which
 * asks no anti-bot token unless the form has a password; then the anti-bot token, then the secret.
 */
async function admitUpload(
  ctx: AppContext,
  slug: string,
  form: FormRow,
  text: Record<string, string>,
  ip: string | undefined,
) {
  if (form.draft) {
    if (!isPreviewToken(form, text.preview))
      raise(
        "form_closed",
        "This form is a draft: it takes uploads only from its preview page or with the owner's key.",
      );
    // the preview token is a link of its own; a password is asked as on the live page
    if (form.access_mode !== "password") return;
  }
  if (needsAntiBot(form)) await checkAntiBot(ctx, text.turnstile_token, ip);
  await checkAccess(ctx, slug, form, text.access, ip);
  // an invite-only form takes files only from an unspent personal link (SPEC §25)
  if (form.access_mode === "invite") await checkInvite(ctx, form, text.invite);
}

async function store(ctx: AppContext, form: FormRow, f: FileField, file: FilePart) {
  const type = file.contentType || "application/octet-stream";
  const accept = f.accept ?? (f.type === "image" ? ["image/*"] : undefined);
  if (!accepts(accept, type)) {
    raise("validation_failed", `This field accepts ${accept!.join(", ")}.`, {
      details: [{ field: f.id, message: `accepts ${accept!.join(", ")}` }],
    });
  }
  const max = f.max_mb * 1024 * 1024;
  const key = `${form.id}/${crypto.randomUUID()}/${safeName(file.filename)}`;
  try {
    // straight from the request to storage: no stage between them holds or copies the bytes
    await ctx.storage.write(key, file.stream(max), type);
  } catch (error) {
    await ctx.storage.remove(key).catch(() => {});
    if (file.overMax) raise("payload_too_large", `The file is over ${f.max_mb} MB.`);
    throw error;
  }
  const size = file.size;
  const url = `${ctx.config.baseUrl}/api/uploads/${key}`;
  await ctx.db.query(
    "insert into uploads (form_id, field_id, storage_key, url, content_type, size_bytes) values ($1, $2, $3, $4, $5, $6)",
    [form.id, f.id, key, url, type, size],
  );
  return { url };
}

/** Files no submission references within FORMDOWN_UPLOAD_TTL (24 h) are deleted. */
export async function sweepUploads(ctx: AppContext): Promise<number> {
  const stale = await ctx.db.query<{ id: string; storage_key: string }>(
    "delete from uploads where response_id is null and created_at < now() - make_interval(secs => $1::float8) returning id, storage_key",
    [ctx.config.uploadTtl],
  );
  for (const u of stale) await ctx.storage.remove(u.storage_key).catch(() => {});
  return stale.length;
}
