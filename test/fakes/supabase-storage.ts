import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of Supabase Storage's object API, as @supabase/supabase-js calls it:
 * POST /storage/v1/object/{bucket}/{path} (upload), GET …/object/{bucket}/{path} (download,
 * authenticated), DELETE /storage/v1/object/{bucket} with {prefixes} (remove).
 */
export async function startStorageFake(serviceKey: string) {
  const objects = new Map<string, { data: Buffer; type: string }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${serviceKey}`)
        return reply(403, {
          statusCode: "403",
          error: "Unauthorized",
          message: "invalid signature",
        });
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      const m = /^\/storage\/v1\/object\/(?:authenticated\/)?([^/]+)(?:\/(.+))?$/.exec(path);
      if (!m) return reply(404, { statusCode: "404", error: "not_found", message: "Not found" });
      const [, bucket, key] = m;
      const id = `${bucket}/${key}`;
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && key) {
        if (objects.has(id) && req.headers["x-upsert"] !== "true")
          return reply(409, {
            statusCode: "409",
            error: "Duplicate",
            message: "The resource already exists",
          });
        objects.set(id, {
          data: body,
          type: String(req.headers["content-type"] ?? "application/octet-stream"),
        });
        return reply(200, { Key: id, Id: crypto.randomUUID() });
      }
      if (req.method === "GET" && key) {
        const o = objects.get(id);
        if (!o)
          return reply(404, { statusCode: "404", error: "not_found", message: "Object not found" });
        res.writeHead(200, { "content-type": o.type });
        return res.end(o.data);
      }
      if (req.method === "DELETE" && !key) {
        const { prefixes } = JSON.parse(body.toString() || "{}") as { prefixes: string[] };
        for (const p of prefixes) objects.delete(`${bucket}/${p}`);
        return reply(
          200,
          prefixes.map((name) => ({ name })),
        );
      }
      reply(400, { statusCode: "400", error: "bad_request", message: "Unsupported" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
