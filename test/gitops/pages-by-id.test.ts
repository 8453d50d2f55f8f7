// SPEC §22 "Pages submit by form id": a page built before a rename keeps reaching its form after
// the same account makes a new form at the old slug. A page the server rendered names the form
// by its id; a page built from files names a slug and the commit it was built at (`?built=`),
// which the server matches against the commits its reconcile applied (form-address.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer, testFetch } from "../helpers/server.ts";

const C1 = "1".repeat(40);
const C2 = "2".repeat(40);
const C3 = "3".repeat(40);
const REPO = "example.com/pages-by-id";

const definition = (slug: string, title: string) => ({
  title,
  slug,
  humanness: false,
  settings: { partial: true },
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "cv", type: "file", label: "CV" },
  ],
});
const file = (slug: string, title: string) => `---
title: ${title}
slug: ${slug}
humanness: false
settings: { partial: true }
fields:
  - { id: name, type: text, label: Name }
  - { id: cv, type: file, label: CV }
---

${title}: a form with enough text that it reads the same before and after its move.
`;

describe.each(DB_KINDS)("pages built before a rename (SPEC §22) on %s", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** What a page's script sends: url() of src/runtime/form-element.ts, its bodies. */
  const page = (form: string, query = "") => {
    const url = (path: string) => `${s.url}/api/forms/${form}${path}${query}`;
    const post = (path: string, body: unknown) =>
      testFetch(url(path), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    return {
      submit: (name: string, cv?: string) =>
        post("/submit", { fields: { name, ...(cv ? { cv } : {}) }, lang: "en", seconds: 3 }),
      beacon: () => post("/events", { type: "view" }),
      partial: (name: string) => post("/partial", { fields: { name }, page: 0, lang: "en" }),
      resumed: (token: string) => testFetch(url(`/partial/${token}`)),
      upload: () => {
        const parts = new FormData();
        parts.set("field", "cv");
        parts.set("file", new Blob(["%PDF-1.4 cv"], { type: "application/pdf" }), "cv.pdf");
        return testFetch(url("/uploads"), { method: "POST", body: parts });
      },
    };
  };

  /** Sends one of each through `p`; answers the uploaded file's URL and the partial's token. */
  async function sendAll(p: ReturnType<typeof page>) {
    const up = await p.upload();
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    expect((await p.submit("Ada", url)).status).toBe(201);
    expect((await p.beacon()).status).toBe(204);
    const saved = await p.partial("Bo");
    expect(saved.status).toBe(200);
    const { resume } = (await saved.json()) as { resume: string };
    expect((await p.resumed(resume)).status).toBe(200);
    return { url, resume };
  }

  const names = async (slug: string) =>
    (await api("GET", `/api/forms/${slug}/responses`)).body.responses.map(
      (r: { payload: { name: string } }) => r.payload.name,
    );
  const views = async (slug: string) => (await api("GET", `/api/forms/${slug}/stats`)).body.views;

  it("a page the server rendered names the form by id: it reaches the renamed form, not the new one at its old slug", async () => {
    expect((await api("POST", "/api/forms", { body: definition("pi-old", "First") })).status).toBe(
      201,
    );
    const id: string = (await api("GET", "/api/forms/pi-old")).body.form_id;
    expect(
      (await api("POST", "/api/forms/pi-old/rename", { body: { slug: "pi-new" } })).status,
    ).toBe(200);
    // the same account takes the old slug again (another account cannot: renamed-slugs.test.ts)
    const again = await api("POST", "/api/forms", { body: definition("pi-old", "Second") });
    expect(again.status).toBe(201);
    const { url, resume } = await sendAll(page(id));
    expect(url).toContain(`/${id}/`);
    expect(await names("pi-new")).toEqual(["Ada"]);
    expect(await names("pi-old")).toEqual([]);
    expect([await views("pi-new"), await views("pi-old")]).toEqual([1, 0]);
    // the partial is the renamed form's: the new form's page cannot resume it
    expect((await page("pi-old").resumed(resume)).status).toBe(404);
    // the new form's own page (by its id, or by the slug it holds) reaches the new form
    expect((await page(again.body.form_id).submit("Cy")).status).toBe(201);
    expect((await page("pi-old").submit("Di")).status).toBe(201);
    expect(await names("pi-old")).toEqual(expect.arrayContaining(["Cy", "Di"]));
    expect(await names("pi-new")).toEqual(["Ada"]);
  });

  it("a page built from files at a commit deployed before the rename reaches the renamed form", async () => {
    const deploy = async (commit: string, files: string[][], renames: object[] = []) => {
      const res = await api("POST", "/api/deploys", {
        body: {
          repository: REPO,
          commit,
          files: files.map(([slug, title]) => ({
            path: `forms/@${s.handler}/${slug}.md`,
            markdown: file(slug!, title!),
          })),
          renames,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await deploy(C1, [["pb-old", "First"]]);
    const at = (slug: string) => `forms/@${s.handler}/${slug}.md`;
    await deploy(C2, [["pb-new", "First"]], [{ from: at("pb-old"), to: at("pb-new") }]);
    await deploy(C3, [
      ["pb-new", "First"],
      ["pb-old", "Second"],
    ]);
    // the page built at C1 (before the rename): its slug and commit
    const { url } = await sendAll(page("pb-old", `?built=${C1}`));
    const first = (await api("GET", "/api/forms/pb-new")).body;
    expect(url).toContain(`/${first.form_id}/`);
    expect(await names("pb-new")).toEqual(["Ada"]);
    expect([await views("pb-new"), await views("pb-old")]).toEqual([1, 0]);
    // the new form's page, built at C3 (or at a commit this server never applied, or with no
    // commit at all: a build outside git), reaches the form that holds the slug
    expect((await page("pb-old", `?built=${C3}`).submit("Cy")).status).toBe(201);
    expect((await page("pb-old", `?built=${"4".repeat(40)}`).submit("Di")).status).toBe(201);
    expect((await page("pb-old").submit("Ed")).status).toBe(201);
    expect((await names("pb-old")).sort()).toEqual(["Cy", "Di", "Ed"]);
    expect(await names("pb-new")).toEqual(["Ada"]);
  });

  it("answers a repeated `built` with invalid_param", async () => {
    const res = await page("pb-old", `?built=${C1}&built=${C3}`).submit("Fy");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("invalid_param");
  });
});
