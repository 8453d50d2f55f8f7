// Eighth review (docs/security-review.md): a page opened with `?resume=<token>` continued that
// partial response under the same token, and whoever holds the token reads the partial. A
// stranger made an empty partial of a form with settings.partial (no key), sent someone the
// form's real address with its token, and read their answers page by page with
// `GET …/partial/<token>`; the token stayed in the browser's kept answers, so a later visit
// without the link saved there too. The first save of a page opened by a link now claims the
// partial: it moves to a new token, and the link's stops working.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";
import { DB_KINDS } from "../helpers/db.ts";

const form = {
  title: "Health survey",
  slug: "health",
  humanness: false,
  settings: { partial: true },
  fields: [
    { id: "name", type: "text", label: "Name", step: 1 },
    { id: "cond", type: "text", label: "Condition", step: 1 },
    { id: "last", type: "text", label: "Last", step: 2 },
  ],
};

describe.each(DB_KINDS)("a resume link handed out by a stranger (%s)", (kind) => {
  let suite: PageSuite;
  beforeAll(async () => {
    suite = await startPageSuite({ db: kind });
    const created = await suite.api("POST", "/api/forms", { body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await suite?.close();
  });

  /** The stranger's partial, made as any page makes one: anonymous, empty. */
  const strangersToken = async () => {
    const made = await suite.api("POST", "/api/forms/health/partial", {
      key: null,
      body: { fields: {}, page: 0 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.resume as string;
  };
  const read = (token: string) =>
    suite.api("GET", `/api/forms/health/partial/${token}`, { key: null });
  /** Once the page's save has reached the server: the partial (seen with the owner's key). */
  const saved = async (answer: string) => {
    const holds = (r: { payload: Record<string, unknown> }) =>
      Object.values(r.payload).includes(answer);
    for (let i = 0; i < 100; i++) {
      const { responses } = (await suite.api("GET", "/api/forms/health/responses?status=partial"))
        .body as { responses: { payload: Record<string, unknown> }[] };
      if (responses.some(holds)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no partial holds ${answer}`);
  };

  it("does not let the link's holder read what the respondent answers", async () => {
    const token = await strangersToken();
    const context = await suite.context.browser()!.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/@me/health?resume=${token}`);
      await page.getByLabel("Name").fill("Victim Person");
      await page.getByLabel("Condition").fill("private diagnosis");
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByLabel("Last").waitFor({ state: "visible" });
      await saved("private diagnosis");
      const theirs = await read(token);
      expect(JSON.stringify(theirs.body)).not.toContain("private diagnosis");
      expect(theirs.status).toBe(404);
      // the respondent still finishes: one response with their answers
      await page.getByLabel("Last").fill("done");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.locator(".fd-done").waitFor();
      const done = (await suite.api("GET", "/api/forms/health/responses")).body;
      expect(done.responses[0].payload).toMatchObject({ cond: "private diagnosis", last: "done" });
    } finally {
      await context.close();
    }
  });

  it("claims a link's token at the first save after a reload without the link", async () => {
    const token = await strangersToken();
    const context = await suite.context.browser()!.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/@me/health?resume=${token}`);
      await page.getByLabel("Name").fill("Second Person");
      // kept in this browser with the link's token, then the page again without the link
      await page.waitForFunction(
        () => localStorage.length > 0 && /"r":/.test(Object.values(localStorage).join("")),
      );
      await page.goto(`${suite.server.url}/@me/health`);
      await page.getByLabel("Condition").fill("another secret");
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByLabel("Last").waitFor({ state: "visible" });
      await saved("another secret");
      const theirs = await read(token);
      expect(JSON.stringify(theirs.body)).not.toContain("another secret");
      expect(theirs.status).toBe(404);
    } finally {
      await context.close();
    }
  });
});
