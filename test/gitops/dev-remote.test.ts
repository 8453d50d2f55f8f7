// SPEC §21: `formdown dev` in a forms-only repository previews against a running server. Each
// saved file is sent as a draft (`<slug>-dev`), its preview page reloads, nothing is published
// and the live form of the same slug is never changed. The real CLI, as a child process.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { launch } from "../helpers/browser.ts";
import { type RunningCli, spawnCli, until } from "../helpers/cli-process.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const CLI = new URL("../../cli/formdown.mjs", import.meta.url).pathname;
const form = (title: string, label = "Your name") =>
  `---\ntitle: ${title}\nslug: hello\nfields:\n  - id: name\n    type: text\n    label: ${label}\n---\n`;

let s: TestServer;
let tmp: string;
let dev: RunningCli;
let preview: string;
const file = () => join(tmp, "repo/forms/@me/hello.md");

const api = async (path: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
  });
const page = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, html: await res.text() };
};
const version = async () =>
  (await (await fetch(`${s.url}/api/preview/${preview.split("/").pop()}`)).json()) as {
    version: number;
  };
const scripts = (html: string) => [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);

beforeAll(async () => {
  await ensurePagesBuilt();
  s = await startTestServer();
  tmp = await mkdtemp(join(tmpdir(), "formdown-dev-remote-"));
  await mkdir(join(tmp, "repo/forms/@me"), { recursive: true });
  // the same slug is live already: dev must leave it exactly as it is
  const live = await api("/api/forms/hello", {
    method: "PUT",
    body: JSON.stringify({ markdown: form("Hello live") }),
  });
  expect(live.status).toBe(201);
  await writeFile(file(), form("Hello draft"));
  dev = spawnCli([CLI, "dev", "--url", s.url.replace(/^http:\/\//, "")], {
    cwd: join(tmp, "repo"),
    env: { FORMDOWN_API_KEY: s.apiKey, HOME: tmp },
  });
  preview = (await dev.waitFor(/http:\/\/\S+\/preview\/[A-Za-z0-9_-]+/))[0];
});
afterAll(async () => {
  await dev?.stop();
  await s?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("formdown dev against a running server", () => {
  it("prints a draft preview that serves the form, and publishes nothing", async () => {
    expect(dev.output()).toContain("forms/@me/hello.md");
    expect(dev.output()).toContain("draft hello-dev");
    const shown = await page(preview);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Hello draft");
    const list = (await (await api("/api/forms")).json()) as { slug: string; status: string }[];
    expect(list.find((f) => f.slug === "hello-dev")?.status).toBe("draft");
    expect((await page(`${s.url}/@me/hello-dev`)).status).toBe(404);
    expect((await fetch(`${s.url}/api/forms/hello-dev/public`)).status).toBe(404);
    const live = (await (await api("/api/forms/hello")).json()) as Record<string, unknown>;
    expect(live).toMatchObject({ status: "live", version: 1, title: "Hello live" });
  });

  it("the server never turns a live form into a draft", async () => {
    const res = await api("/api/forms/hello?confirm=true", {
      method: "PUT",
      body: JSON.stringify({ markdown: form("Taken over"), status: "draft" }),
    });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([409, "conflict"]);
    const live = (await (await api("/api/forms/hello")).json()) as Record<string, unknown>;
    expect(live).toMatchObject({ status: "live", version: 1, title: "Hello live" });
  });

  it("only the preview page carries the reload script", async () => {
    const live = (await page(`${s.url}/@me/hello`)).html;
    const extra = scripts((await page(preview)).html).filter((src) => !scripts(live).includes(src));
    expect(extra).toHaveLength(1);
    expect(live).not.toContain(extra[0]);
  });

  it("a save changes what the preview serves and the version its page polls", async () => {
    const before = (await version()).version;
    await writeFile(file(), form("Hello again"));
    await until(
      () => page(preview),
      (p) => p.html.includes("Hello again"),
    );
    expect((await version()).version).toBeGreaterThan(before);
    expect(((await (await api("/api/forms/hello")).json()) as { title: string }).title).toBe(
      "Hello live",
    );
  });

  it("a broken file prints file:line, sends nothing, and the preview keeps the last good one", async () => {
    const before = (await version()).version;
    await writeFile(file(), form("Hello broken").replace("type: text", "type: nonsense"));
    await dev.waitFor(/forms\/@me\/hello\.md:\d+: .*type/);
    expect(dev.output()).toContain("not sent");
    expect((await page(preview)).html).toContain("Hello again");
    expect((await version()).version).toBe(before);
  });

  it("an open preview page reloads after a save", async () => {
    const browser = await launch();
    try {
      const tab = await browser.newPage();
      await tab.goto(preview);
      await tab.waitForSelector("text=Hello again");
      await writeFile(file(), form("Hello reloaded", "Your full name"));
      await tab.waitForSelector("text=Your full name", { timeout: 60_000 });
      expect(await tab.title()).toContain("Hello reloaded");
    } finally {
      await browser.close();
    }
  });

  it("the bundled CLI, with no checkout, previews the same way and stops on Ctrl+C", async () => {
    const bundle = await (await fetch(`${s.url}/cli/formdown.mjs`)).text();
    const repo = join(tmp, "solo");
    await mkdir(join(repo, ".formdown"), { recursive: true });
    await mkdir(join(repo, "forms/@me"), { recursive: true });
    await writeFile(join(repo, ".formdown/formdown.mjs"), bundle);
    await writeFile(join(repo, "forms/@me/solo.md"), form("Solo").replace("hello", "solo"));
    const solo = spawnCli([".formdown/formdown.mjs", "dev"], {
      cwd: repo,
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey, HOME: tmp },
    });
    try {
      const url = (await solo.waitFor(/http:\/\/\S+\/preview\/[A-Za-z0-9_-]+/))[0];
      expect(solo.output()).toContain("draft solo-dev");
      expect((await page(url)).html).toContain("Solo");
      await solo.waitFor(/Watching/);
    } finally {
      expect(await solo.stop()).toBe(0);
    }
  });
});
