import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const contact = {
  title: "Contact",
  slug: "contact-api",
  humanness: false,
  fields: [
    { id: "name", type: "text", label: "Name", required: true },
    { id: "score", type: "nps", label: "Score" },
  ],
};

describe.each(DB_KINDS)("forms and responses over REST (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  });
  afterAll(() => s?.close());

  it("creates a form, answers variant A's create shape and commits its file", async () => {
    const res = await api("POST", "/api/forms", { body: contact });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: "contact-api",
      form_slug: "contact-api",
      status: "live",
    });
    expect(res.body.public_url).toMatch(/\/@me\/contact-api$/);
    expect(res.body.short_url).toMatch(/\/[A-Za-z0-9]*[A-Z][A-Za-z0-9]*$/);
    const file = await readFile(join(s.repoDir, "forms/@me/contact-api.md"), "utf8");
    expect(file).toContain("slug: contact-api");
    expect(execFileSync("git", ["-C", s.repoDir, "log", "--format=%s"]).toString()).toContain(
      "Create form contact-api",
    );
  });

  it("refuses a taken slug with 409 and a bad definition with 400 details", async () => {
    expect((await api("POST", "/api/forms", { body: contact })).status).toBe(409);
    const other = client(s.url, await s.otherKey());
    expect((await other("POST", "/api/forms", { body: contact })).body.code).toBe("conflict");
    const bad = await api("POST", "/api/forms", {
      body: { ...contact, slug: "Bad Slug", fields: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(["slug", "fields"]),
    );
  });

  it("accepts submissions and reads them back through both variants, newest first", async () => {
    for (const name of ["Ann", "Bob", "Cy"]) {
      const res = await api("POST", "/api/forms/contact-api/submit", {
        key: null,
        body: { fields: { name, score: 0 } },
      });
      expect(res.status).toBe(201);
      expect(res.body.response_id).toBe(res.body.submission_id);
      expect(res.body.status).toBe("received");
    }
    const a = await api("GET", "/api/forms/contact-api/responses?limit=2");
    expect(a.body).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(a.body.responses.map((r: { payload: { name: string } }) => r.payload.name)).toEqual([
      "Cy",
      "Bob",
    ]);
    expect(a.body.responses[0].payload.score).toBe(0);
    const b = await api("GET", "/api/forms/contact-api/submissions?limit=1&offset=2");
    expect(b.body).toMatchObject({ limit: 1, offset: 2, total: 3 });
    expect(b.body.submissions[0].payload.name).toBe("Ann");
    const one = await api("GET", `/api/forms/contact-api/submissions/${b.body.submissions[0].id}`);
    expect(one.body.payload).toEqual({ name: "Ann", score: 0 });
    expect(
      (await api("GET", `/api/forms/contact-api/responses/${b.body.submissions[0].id}`)).status,
    ).toBe(200);
  });

  it("filters by since (inclusive) and until (exclusive), and rejects malformed parameters", async () => {
    const all = await api("GET", "/api/forms/contact-api/responses");
    const newest = all.body.responses[0].submitted_at;
    expect(
      (await api("GET", `/api/forms/contact-api/responses?since=${encodeURIComponent(newest)}`))
        .body.total,
    ).toBe(1);
    expect(
      (await api("GET", `/api/forms/contact-api/responses?until=${encodeURIComponent(newest)}`))
        .body.total,
    ).toBe(2);
    expect((await api("GET", "/api/forms/contact-api/responses?since=2000-01-01")).body.total).toBe(
      3,
    );
    for (const q of ["limit=201", "limit=0", "page=0", "limit=abc", "since=yesterday"]) {
      const res = await api("GET", `/api/forms/contact-api/responses?${q}`);
      expect([res.status, res.body.code]).toEqual([400, "invalid_param"]);
    }
    expect((await api("GET", "/api/forms/contact-api/submissions?limit=101")).body.code).toBe(
      "invalid_param",
    );
  });

  it("lists forms with stats and shows a detail with config", async () => {
    const list = await api("GET", "/api/forms");
    const mine = list.body.find((f: { slug: string }) => f.slug === "contact-api");
    expect(mine.stats).toMatchObject({ responses: 3, submissions: 3 });
    const detail = await api("GET", "/api/forms/contact-api");
    expect(detail.body.config.fields).toHaveLength(2);
    expect(detail.body.stats.responses).toBe(3);
  });

  it("patches only the keys given and commits nothing when nothing changes", async () => {
    const log = () =>
      execFileSync("git", ["-C", s.repoDir, "rev-list", "--count", "HEAD"]).toString().trim();
    const before = log();
    const res = await api("PATCH", "/api/forms/contact-api", { body: { title: "Contact us" } });
    expect(res.body.title).toBe("Contact us");
    expect(res.body.config.fields).toHaveLength(2);
    expect(Number(log())).toBe(Number(before) + 1);
    await api("PATCH", "/api/forms/contact-api", { body: { title: "Contact us" } });
    expect(log()).toBe(String(Number(before) + 1));
    expect(
      (await api("PATCH", "/api/forms/contact-api", { body: { slug: "renamed" } })).status,
    ).toBe(400);
  });

  it("deploys in place with PUT from a form file", async () => {
    const markdown =
      "---\ntitle: Deployed\nslug: deployed\nhumanness: false\nfields:\n  - id: q\n    type: yes_no\n---\n\nHello\n";
    const first = await api("PUT", "/api/forms/deployed", { body: { markdown } });
    expect([first.status, first.body.result]).toEqual([201, "created"]);
    const again = await api("PUT", "/api/forms/deployed", { body: { markdown } });
    expect(again.body.result).toBe("unchanged");
    const changed = await api("PUT", "/api/forms/deployed", {
      body: { markdown: markdown.replace("Deployed", "Deployed 2") },
    });
    expect(changed.body.result).toBe("updated");
  });

  it("deletes a form with its responses and file", async () => {
    expect((await api("DELETE", "/api/forms/deployed")).status).toBe(204);
    expect((await api("GET", "/api/forms/deployed")).status).toBe(404);
    await expect(readFile(join(s.repoDir, "forms/@me/deployed.md"))).rejects.toThrow();
  });
});
