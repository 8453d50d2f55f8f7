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
      const { data, error } = await store().download(key);
      if (error || !data) return null;
      return {
        data: new Uint8Array(await data.arrayBuffer()),
        contentType: data.type || "application/octet-stream",
      };
    },
    async remove(key) {
      await store().remove([key]);
    },
  };
}
