// Drop-off as the page reports it: the furthest question each respondent reached, no answers,
// and the seconds a finished respondent took (SPEC §13).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
const beacons: unknown[] = [];

beforeAll(async () => {
  suite = await startPageSuite();
  await suite.api("POST", "/api/forms", {
    body: {
      title: "Funnel",
      slug: "funnel",
      humanness: false,
      fields: [
        { id: "intro", type: "statement", label: "Four quick questions.", step: 1 },
        { id: "name", type: "text", label: "Name", step: 1 },
        { id: "role", type: "radio", label: "Role", options: ["Dev", "Ops"], step: 1 },
        { id: "team", type: "number", label: "Team size", step: 2 },
        { id: "notes", type: "textarea", label: "Notes", step: 3 },
      ],
    },
  });
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

/** A respondent in a browser of their own (storage is per respondent). */
async function respondent(): Promise<Page> {
  const context = await suite.context.browser()!.newContext();
  const page = await context.newPage();
  page.on("request", (r) => {
    if (r.url().endsWith("/events")) beacons.push(JSON.parse(r.postData() ?? "{}"));
  });
  await page.goto(`${suite.server.url}/@me/funnel`);
  return page;
}

const settle = (page: Page) => page.waitForLoadState("networkidle");

describe("drop-off beacons", () => {
  it("records how far respondents who stopped at different questions got, and the time of those who finished", async () => {
    const first = await respondent(); // looks, types a name, leaves
    await first.getByLabel("Name").fill("A");
    await settle(first);
    await first.context().close();

    const second = await respondent(); // reaches the team size and leaves
    await second.getByLabel("Name").fill("B");
    await second.getByRole("radio", { name: "Ops" }).check();
    await second.getByRole("button", { name: "Next" }).click();
    await second.getByLabel("Team size").fill("4");
    await settle(second);
    // a reload is the same respondent: nothing is reported twice
    await second.reload();
    await second.getByRole("button", { name: "Next" }).click();
    await settle(second);
    await second.context().close();

    const third = await respondent(); // finishes
    await third.getByLabel("Name").fill("C");
    await third.getByRole("button", { name: "Next" }).click();
    await third.getByRole("button", { name: "Next" }).click();
    await third.waitForTimeout(1100);
    await third.getByRole("button", { name: "Submit" }).click();
    await third.getByRole("heading", { name: "Thank you" }).waitFor();
    await settle(third);

    const reached = await suite.server.ctx.db.query<{ field: string; reached: number }>(
      `select p.field, sum(p.reached)::int as reached from form_progress p
         join forms f on f.id = p.form_id where f.slug = 'funnel' group by p.field order by p.field`,
    );
    expect(Object.fromEntries(reached.map((r) => [r.field, r.reached]))).toEqual({
      name: 3,
      role: 2, // the first respondent never got past the name
      team: 2,
      notes: 1,
    });
    // beacons carry a type and at most a field id: never an answer
    for (const b of beacons) {
      expect(Object.keys(b as object).every((k) => k === "type" || k === "field")).toBe(true);
    }
    expect(JSON.stringify(beacons)).not.toMatch(/"(A|B|C|Ops|4)"/);
    const [row] = await suite.server.ctx.db.query<{ seconds: number | null; n: number }>(
      "select max(r.seconds) as seconds, count(*)::int as n from responses r join forms f on f.id = r.form_id where f.slug = 'funnel'",
    );
    expect(row!.n).toBe(1);
    expect(row!.seconds).toBeGreaterThanOrEqual(1);
    expect(row!.seconds).toBeLessThan(120);
  });
});
