import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { startTurnstileFake } from "../fakes/turnstile.ts";
import { client } from "../helpers/api.ts";
import { launch } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let fake: Awaited<ReturnType<typeof startTurnstileFake>>;

beforeAll(async () => {
  await ensurePagesBuilt();
  fake = await startTurnstileFake();
  s = await startTestServer({
    env: {
      TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
      TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
      TURNSTILE_VERIFY_URL: fake.url,
      TURNSTILE_SCRIPT_URL: fake.script,
    },
  });
  const markdown = await readFile(
    new URL("../fixtures/examples/contact.md", import.meta.url),
    "utf8",
  );
  await client(s.url, s.apiKey)("PUT", "/api/forms/contact", { body: { markdown } });
}, 180_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe("production anti-bot on the page", () => {
  it("renders the Turnstile widget, sends its token, and the server verifies it with siteverify", async () => {
    const browser = await launch();
    try {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${s.url}/@me/contact`);
      await page.getByText("Verified (test widget for 1x00000000000000000000AA)").waitFor();
      await page.getByLabel("Your name").fill("Turing");
      await page.getByLabel("Email address").fill("alan@example.com");
      await page.getByLabel("Message").fill("Hi");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
      expect(fake.requests.at(-1)).toMatchObject({
        response: "XXXX.DUMMY.TOKEN.XXXX",
        secret: "1x0000000000000000000000000000000AA",
      });
      const csp = await page
        .locator('meta[http-equiv="Content-Security-Policy"]')
        .getAttribute("content");
      expect(csp).toContain(new URL(fake.script).origin);
    } finally {
      await browser.close();
    }
  });
});
