// `formdown dev` (issue 17 item 6): a running dev server, a real browser, a file edited on disk.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../../functions/node/dev/dev-server.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";

let dir: string;
let dev: Awaited<ReturnType<typeof startDevServer>>;
let browser: SuiteBrowser;
const file = () => join(dir, "forms/@me/team-lunch.md");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "formdown-dev-test-"));
  await cp(new URL("../fixtures/authored/", import.meta.url).pathname, join(dir, "forms/@me"), {
    recursive: true,
  });
  dev = await startDevServer({
    files: [],
    cwd: dir,
    port: 0,
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
  });
  dev.watch();
  browser = await launch();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await dev?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("formdown dev", () => {
  it("redraws the page after a save, then shows a broken file's error with its line, then recovers", async () => {
    const page = await browser.newPage();
    await page.goto(`${dev.url}/@me/team-lunch`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Team lunch: what do we order?");
    const original = await readFile(file(), "utf8");

    // the page redraws by itself (how fast: bench/dev-reload.ts)
    await writeFile(file(), original.replace("what do we order?", "pick a place"));
    await page.locator("h1", { hasText: "Team lunch: pick a place" }).waitFor({ timeout: 5000 });

    await writeFile(
      file(),
      original.replace("  - label: Your name", "  - label: Your name\n   oops: x"),
    );
    const error = page.locator("#formdown-errors li").first();
    await error.waitFor({ timeout: 5000 });
    expect(await error.textContent()).toMatch(/^forms\/@me\/team-lunch\.md:\d+: invalid YAML: /);
    // the line of the misindented key, as the broken file has it
    const line = Number(/:(\d+):/.exec((await error.textContent()) ?? "")?.[1]);
    expect((await readFile(file(), "utf8")).split("\n")[line - 1]).toBe("   oops: x");

    await writeFile(file(), original);
    await page
      .locator("h1", { hasText: "Team lunch: what do we order?" })
      .waitFor({ timeout: 5000 });
    await page.close();
  }, 60_000);

  it("accepts a test submission into its throwaway database", async () => {
    await writeFile(
      join(dir, "forms/@me/quick.md"),
      "---\ntitle: Quick\nslug: quick\nhumanness: false\nfields:\n  - id: a\n    type: text\n---\n",
    );
    // the new file is picked up by the folder watch and deployed
    await expect
      .poll(() => dev.files().find((f) => f.file === "forms/@me/quick.md")?.errors, {
        timeout: 5000,
      })
      .toEqual([]);
    expect((await fetch(`${dev.url}/@me/quick`)).status).toBe(200);
    const res = await fetch(`${dev.url}/api/forms/quick/submit`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: dev.url },
      body: JSON.stringify({ fields: { a: "hello" } }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  });
});
