import { describe, expect, it } from "vitest";
import { startStorageFake } from "../fakes/supabase-storage.ts";
import { startTestServer } from "../helpers/server.ts";

describe("uploads in Supabase Storage (production)", () => {
  it("stores, serves and deletes files through supabase-js against the Storage API", async () => {
    const fake = await startStorageFake("service-role-key");
    const s = await startTestServer({
      env: { SUPABASE_URL: fake.url, SUPABASE_SERVICE_ROLE_KEY: "service-role-key" },
    });
    try {
      const create = await fetch(`${s.url}/api/forms`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          title: "CV",
          slug: "cv",
          humanness: false,
          fields: [{ id: "cv", type: "file", accept: ["application/pdf"] }],
        }),
      });
      expect(create.status).toBe(201);
      const form = new FormData();
      form.set("field", "cv");
      form.set("file", new File(["%PDF cv"], "cv.pdf", { type: "application/pdf" }));
      const up = await fetch(`${s.url}/api/forms/cv/uploads`, { method: "POST", body: form });
      expect(up.status).toBe(201);
      const { url } = (await up.json()) as { url: string };
      expect([...fake.objects.keys()]).toEqual([
        expect.stringMatching(/^formdown-uploads\/.+\/cv\.pdf$/),
      ]);
      expect(await (await fetch(url)).text()).toBe("%PDF cv");
      const del = await fetch(`${s.url}/api/forms/cv`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      expect(del.status).toBe(204);
      expect(fake.objects.size).toBe(0);
    } finally {
      await s.close();
      await fake.close();
    }
  });
});
