// Endings, redirects, piping and quiz results as a respondent sees them (SPEC §13).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

const EVIL = "<img src=x onerror=alert(1)>";
let suite: PageSuite;
let landing: Server;
let landingUrl = "";
const arrived: string[] = [];

beforeAll(async () => {
  suite = await startPageSuite();
  // where redirects land: a loopback site that records the URL it was sent to
  landing = createServer((req, res) => {
    arrived.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<h1>Landed</h1>");
  });
  await new Promise<void>((r) => landing.listen(0, "127.0.0.1", r));
  landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  landing?.close();
  await suite?.close();
});

const create = (body: Record<string, unknown>) =>
  suite.api("POST", "/api/forms", { body: { humanness: false, ...body } });

describe("endings and piping", () => {
  it("pipes answers into later labels and the ending, as text: markup in an answer stays text", async () => {
    await create({
      title: "Hello",
      slug: "hello",
      ending: {
        title: "Thanks, {field:name}!",
        body: "We will write to **{field:email}** about {field:name}.",
      },
      fields: [
        { id: "name", type: "text", label: "Your name", required: true, step: 1 },
        { id: "email", type: "email", label: "Where can we reach you, {field:name}?", step: 2 },
      ],
    });
    const page = await suite.open("/@me/hello");
    let dialogs = 0;
    page.on("dialog", (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.getByLabel("Your name").fill(EVIL);
    await page.getByRole("button", { name: "Next" }).click();
    const second = page.getByLabel(`Where can we reach you, ${EVIL}?`);
    await second.fill("ada@example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: `Thanks, ${EVIL}!` }).waitFor();
    const done = page.locator(".fd-done");
    await expect(done.locator(".fd-ending").textContent()).resolves.toBe(
      `We will write to ada@example.com about ${EVIL}.`,
    );
    await expect(done.locator("strong").textContent()).resolves.toBe("ada@example.com");
    await expect(page.locator("img").count()).resolves.toBe(0);
    expect(dialogs).toBe(0);
    expect(suite.errors).toEqual([]);
  });

  it("redirects to the ending's URL with the answers percent-encoded", async () => {
    await create({
      title: "Go",
      slug: "go",
      hidden: ["ref"],
      ending: { redirect_url: `${landingUrl}/thanks?name={field:name}&ref={hidden:ref}` },
      fields: [{ id: "name", type: "text", label: "Name" }],
    });
    const page = await suite.open("/@me/go?ref=a%26b");
    await page.getByLabel("Name").fill("Zoë & <b>#1");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`${landingUrl}/**`, { timeout: 5_000 });
    await page.getByRole("heading", { name: "Landed" }).waitFor();
    expect(arrived.filter((u) => u.startsWith("/thanks"))).toEqual([
      "/thanks?name=Zo%C3%AB%20%26%20%3Cb%3E%231&ref=a%26b",
    ]);
    expect(new URL(page.url()).searchParams.get("name")).toBe("Zoë & <b>#1");
  });

  it("shows the pass or the fail ending of a quiz, with each question's result and explanation", async () => {
    await create({
      title: "Capitals",
      slug: "capitals",
      type: "quiz",
      quiz: {
        pass_percent: 50,
        pass_ending: { title: "Well done, {field:name}", body: "You scored {percent}%." },
        fail_ending: { title: "Not this time, {field:name}", body: "{score} points." },
      },
      fields: [
        { id: "name", type: "text", label: "Name" },
        {
          id: "fr",
          type: "radio",
          label: "Capital of France?",
          options: ["Lyon", "Paris"],
          answer: "Paris",
          explanation: "Paris has been the capital since 987.",
        },
        {
          id: "de",
          type: "radio",
          label: "Capital of Germany?",
          options: ["Berlin", "Bonn"],
          answer: "Berlin",
        },
      ],
    });
    const html = await (await fetch(`${suite.server.url}/@me/capitals`)).text();
    expect(html).not.toContain("since 987");

    const pass = await suite.open("/@me/capitals");
    await pass.getByLabel("Name").fill("Ada");
    await pass.getByRole("radio", { name: "Paris" }).check();
    await pass.getByRole("radio", { name: "Bonn" }).check();
    await pass.getByRole("button", { name: "Submit" }).click();
    await pass.getByRole("heading", { name: "Well done, Ada" }).waitFor();
    await expect(pass.locator(".fd-ending").textContent()).resolves.toBe("You scored 50%.");
    const items = pass.locator(".fd-feedback li");
    await expect(items.nth(0).textContent()).resolves.toBe(
      "Correct: Capital of France?Paris has been the capital since 987.",
    );
    await expect(items.nth(1).textContent()).resolves.toBe("Incorrect: Capital of Germany?");

    const fail = await suite.open("/@me/capitals");
    await fail.getByLabel("Name").fill("Bob");
    await fail.getByRole("radio", { name: "Lyon" }).check();
    await fail.getByRole("button", { name: "Submit" }).click();
    await fail.getByRole("heading", { name: "Not this time, Bob" }).waitFor();
    await expect(fail.locator(".fd-ending").textContent()).resolves.toBe("0 points.");
    await expect(fail.locator(".fd-score").textContent()).resolves.toMatch(/0 of 2 .* Not passed/);
  });

  it("names each step, starts the progress bar empty, and keeps answers across a reload until the submit", async () => {
    await create({
      title: "Steps",
      slug: "steps",
      settings: { progress_bar: true },
      fields: [
        { id: "name", type: "text", label: "Name", step: "About you" },
        { id: "team", type: "number", label: "Team size", step: "Your team" },
        {
          id: "tools",
          type: "checkbox",
          label: "Tools",
          options: ["Git", "CI"],
          step: "Your team",
        },
      ],
    });
    const page = await suite.open("/@me/steps");
    await expect(page.locator("[data-step]").textContent()).resolves.toBe(
      "Step 1 of 2 · About you",
    );
    await expect(page.getByRole("progressbar").getAttribute("aria-valuenow")).resolves.toBe("0");
    const width = () =>
      page.locator(".fd-progressbar span").evaluate((el) => el.getBoundingClientRect().width);
    await expect(width()).resolves.toBe(0);
    await page.getByLabel("Name").fill("Ada");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.locator("[data-step]").textContent()).resolves.toBe(
      "Step 2 of 2 · Your team",
    );
    // the bar grows over a 0.2 s transition: on a busy machine its first frame is still empty
    await expect.poll(width).toBeGreaterThan(0);
    await page.getByLabel("Team size").fill("7");
    await page.getByRole("checkbox", { name: "CI" }).check();
    await page.reload();
    await expect(page.getByLabel("Name").inputValue()).resolves.toBe("Ada");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByLabel("Team size").inputValue()).resolves.toBe("7");
    await expect(page.getByRole("checkbox", { name: "CI" }).isChecked()).resolves.toBe(true);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("steps"))?.payload).toEqual({ name: "Ada", team: 7, tools: ["CI"] });
    await page.reload();
    await expect(page.getByLabel("Name").inputValue()).resolves.toBe("");
  });
});
