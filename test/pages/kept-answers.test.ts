// The answers a browser keeps for a form (restore.ts) are named by the form's handler and slug:
// slugs are unique on a server, but one account may delete a form and another take its slug.
// Named by the slug alone, a returning respondent's unsent answers to the first form were put
// into the second's controls (and a form with `settings.partial` sent them at its first page).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

const form = {
  title: "Kept",
  slug: "kept",
  humanness: false,
  fields: [{ id: "name", type: "text", label: "Name" }],
};

describe("answers kept in the browser", () => {
  it("are not filled into another account's form that took the freed slug", async () => {
    expect((await suite.api("POST", "/api/forms", { body: form })).status).toBe(201);
    const tab = await suite.open("/@me/kept");
    await tab.getByLabel("Name").fill("My private answer");
    await expect
      .poll(() => tab.evaluate(() => JSON.stringify(Object.entries(localStorage))))
      .toContain("My private answer");
    // a reload of the same form still finds them
    await tab.reload();
    await expect.poll(() => tab.getByLabel("Name").inputValue()).toBe("My private answer");

    const gone = await suite.api("DELETE", "/api/forms/kept");
    expect(gone.status, JSON.stringify(gone.body)).toBeLessThan(300);
    const other = client(suite.server.url, await suite.server.otherKey());
    const taken = await other("POST", "/api/forms", { body: form });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    const handler = (await other("GET", "/api/account")).body.handler as string;

    await tab.goto(`${suite.server.url}/@${handler}/kept`);
    await tab.getByLabel("Name").waitFor();
    await tab.waitForFunction(() => customElements.get("formdown-form") !== undefined);
    expect(await tab.getByLabel("Name").inputValue()).toBe("");
  });
});
