// What the page does with its URL (SPEC §25): `?f.<id>=` prefills visible questions (shown and
// editable; `prefill: false` refuses it), and `?invite=` travels with the submit, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

describe("the page and its URL", () => {
  it("prefills visible questions from ?f.<id>=, editable, except a field that refuses it", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Prefill",
        slug: "prefill",
        humanness: false,
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "color", type: "radio", label: "Color", options: ["Red", "Blue"] },
          { id: "tags", type: "checkbox", label: "Tags", options: ["a", "b", "c"] },
          { id: "salary", type: "text", label: "Salary", prefill: false },
        ],
      },
    });
    const page = await suite.open(
      "/@me/prefill?f.name=Ada&f.color=Blue&f.tags=a&f.tags=c&f.salary=100000",
    );
    expect(await page.getByLabel("Name").inputValue()).toBe("Ada");
    expect(await page.getByLabel("Blue").isChecked()).toBe(true);
    expect(await page.getByLabel("c", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Salary").inputValue()).toBe("");
    await page.getByLabel("Name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("prefill"))?.payload).toEqual({
      name: "Ada Lovelace",
      color: "Blue",
      tags: ["a", "c"],
    });
  });

  it("sends ?invite= with the submit: the link is opened, answered once, then refused", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Team",
        slug: "team",
        humanness: false,
        access: { mode: "invite" },
        fields: [{ id: "word", type: "text", label: "A word" }],
      },
    });
    const made = await suite.api("POST", "/api/forms/team/invites", {
      body: { emails: ["ada@example.com"] },
    });
    const { token } = made.body.invites[0];
    const page = await suite.open(`/@me/team?invite=${token}`);
    await page.getByLabel("A word").fill("yes");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    const response = await suite.latest("team");
    expect(response).toMatchObject({
      payload: { word: "yes" },
      invite: { token, email: "ada@example.com" },
    });
    const [invite] = (await suite.api("GET", "/api/forms/team/invites")).body.invites;
    expect(invite).toMatchObject({ state: "answered" });
    expect(invite.opened_at).toBeDefined();
    // the same link again, in a fresh page: refused, nothing stored
    const again = await suite.context.newPage();
    await again.goto(`${suite.server.url}/@me/team?invite=${token}`);
    await again.evaluate(() => localStorage.clear());
    await again.getByLabel("A word").fill("twice");
    await again.getByRole("button", { name: "Submit" }).click();
    await again.locator(".fd-bad").first().waitFor();
    expect((await suite.api("GET", "/api/forms/team/responses")).body.total).toBe(1);
  });

  it("saves a partial at each page and resumes it from its link in another browser context", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Long",
        slug: "long",
        humanness: false,
        settings: { partial: true },
        fields: [
          { id: "name", type: "text", label: "Name", step: 1 },
          { id: "team", type: "text", label: "Team", step: 2 },
        ],
      },
    });
    const page = await suite.open("/@me/long");
    await page.getByLabel("Name").fill("Grace");
    await page.getByRole("button", { name: "Next" }).click();
    const partials = async () =>
      (await suite.api("GET", "/api/forms/long/responses?status=partial")).body;
    for (let i = 0; i < 100 && (await partials()).total === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const [partial] = (await partials()).responses;
    expect(partial).toMatchObject({ status: "partial", payload: { name: "Grace" } });
    // the token this browser kept, as the resume link carries it
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem("formdown:@me/long") ?? "{}").r as string,
    );
    expect(token).toBeTruthy();
    const other = await suite.context.browser()!.newContext();
    try {
      const elsewhere = await other.newPage();
      await elsewhere.goto(`${suite.server.url}/@me/long?resume=${token}`);
      await elsewhere.getByLabel("Team").waitFor({ state: "visible" });
      await elsewhere.getByLabel("Team").fill("Compilers");
      await elsewhere.getByRole("button", { name: "Submit" }).click();
      await elsewhere.getByRole("heading", { name: "Thank you" }).waitFor();
    } finally {
      await other.close();
    }
    const done = await suite.latest("long");
    expect(done).toMatchObject({ id: partial.id, payload: { name: "Grace", team: "Compilers" } });
    expect((await partials()).total).toBe(0);
  });
});
