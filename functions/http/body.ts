import type { Context } from "hono";
import { raise } from "../../src/core/errors.ts";

export const MAX_BODY = 1024 * 1024;

/** Reads a JSON object body of at most 1 MiB; 413 above, 400 for anything but a JSON object. */
export async function readJson(c: Context, limit = MAX_BODY): Promise<Record<string, unknown>> {
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > limit) raise("payload_too_large", `The request body is over ${limit} bytes.`);
  const reader = c.req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        raise("payload_too_large", `The request body is over ${limit} bytes.`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") raise("invalid_request", "The request body must be a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    raise("invalid_request", "The request body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    raise("invalid_request", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}
