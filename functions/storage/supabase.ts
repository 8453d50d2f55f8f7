import { createClient } from "@supabase/supabase-js";
import type { FileStorage } from "../context.ts";

/** Supabase Storage (production): one bucket, keys as object paths. */
export function supabaseStorage(
  url: string,
  serviceKey: string,
  bucket = "formdown-uploads",
): FileStorage {
  const client = createClient(url, serviceKey, { auth: { persistSession: false } });
  const store = () => client.storage.from(bucket);
  return {
    where: `Supabase Storage (${url}, bucket ${bucket})`,
    async put(key, data, contentType) {
      const { error } = await store().upload(key, data, { contentType, upsert: false });
      if (error) throw new Error(`Supabase Storage upload failed: ${error.message}`);
    },
    async write(key, data, contentType) {
      // supabase-js sends a stream body as it comes (duplex: "half")
      const { error } = await store().upload(key, data, {
        contentType,
        upsert: false,
        duplex: "half",
      });
      if (error) throw new Error(`Supabase Storage upload failed: ${error.message}`);
    },
    // the object as it arrives (supabase-js' download reads it whole into a Blob): a 100 MB
    // upload is not held in memory once per download under way
    async get(key) {
      const res = await fetch(`${url}/storage/v1/object/authenticated/${bucket}/${key}`, {
        headers: { authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
      }).catch(() => null);
      if (!res?.ok || !res.body) {
        await res?.body?.cancel();
        return null;
      }
      const contentType = res.headers.get("content-type") || "application/octet-stream";
      return { data: res.body, contentType };
    },
    async remove(key) {
      await store().remove([key]);
    },
  };
}
