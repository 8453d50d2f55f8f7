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
    async get(key) {
      // the object's own answer, passed on as it arrives: supabase-js's download() reads it
      // whole into a Blob, and each download of a 100 MB upload would hold 100 MB
      const object = new URL(
        `storage/v1/object/${bucket}/${key.replace(/^\/+/, "")}`,
        url.replace(/\/*$/, "/"),
      );
      const res = await fetch(object, {
        headers: { authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
      });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        return null;
      }
      return {
        data: res.body,
        contentType: res.headers.get("content-type") || "application/octet-stream",
      };
    },
    async remove(key) {
      await store().remove([key]);
    },
  };
}
