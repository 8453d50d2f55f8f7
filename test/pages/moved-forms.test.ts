// SPEC §16 "Files renamed or removed" on a static host: the embedded server answers a renamed
// form's old URL with a 301 from its database; the static build forwards it from the repository's
// renames: a `_redirects` file (Netlify, Cloudflare Pages) and, for a plain static server, a page
// at the old path that forwards (meta refresh, canonical link). A removed form is not forwarded.
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPages } from "../../functions/node/build-pages.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";

const outDir = new URL("../../node_modules/.cache/formdown-moved-build/", import.meta.url).pathname;
const form = (slug: string, title: string) =>
  `---\ntitle: ${title}\nslug: ${slug}\nfields:\n  - id: name\n    type: text\n    label: Your name\n  - id: team\n    type: text\n    label: Your team\n---\n\nTell us who you are.\n`;

let repo = "";
let server: Server | undefined;
let browser: SuiteBrowser | undefined;

/** A plain static server: files as they are, `index.html` for a folder, nothing else. */
function serveStatic(root: string): Promise<string> {
  server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = existsSync(path) && statSync(path).isDirectory() ? join(path, "index.html") : path;
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.endsWith(".html") ? "text/html" : "text/plain" });
    createReadStream(file).pipe(res);
  });
  return new Promise((done) =>
    server!.listen(0, "127.0.0.1", () =>
      done(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "formdown-moved-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: repo,
      stdio: "ignore",
    });
  const forms = join(repo, "forms/@me");
  await mkdir(forms, { recursive: true });
  git("init", "-q");
  await writeFile(join(forms, "pulse.md"), form("pulse", "Team pulse"));
  await writeFile(join(forms, "first.md"), form("first", "Renamed twice"));
  await writeFile(join(forms, "gone.md"), form("gone", "Removed"));
  git("add", ".");
  git("commit", "-qm", "forms");
  // pulse → team-pulse; first → second → third; gone renamed, then removed
  const move = async (from: string, to: string, title: string) => {
    await rename(join(forms, `${from}.md`), join(forms, `${to}.md`));
    await writeFile(join(forms, `${to}.md`), form(to, title));
    git("add", "-A");
    git("commit", "-qm", `${from} → ${to}`);
  };
  await move("pulse", "team-pulse", "Team pulse");
  await move("first", "second", "Renamed twice");
  await move("second", "third", "Renamed twice");
  await move("gone", "gone-too", "Removed");
  await rm(join(forms, "gone-too.md"));
  git("add", "-A");
  git("commit", "-qm", "remove gone-too");
  await buildPages({ outDir, env: { FORMDOWN_FORMS_DIR: join(repo, "forms") }, quiet: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  await rm(outDir, { recursive: true, force: true });
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe("a renamed form's old URL on a static host", () => {
  it("writes _redirects with a 301 from each earlier path to the live one, none for a removed form", async () => {
    const redirects = await readFile(join(outDir, "client/_redirects"), "utf8");
    expect(redirects.split("\n").filter(Boolean).sort()).toEqual([
      "/@me/first /@me/third 301",
      "/@me/first/* /@me/third/:splat 301",
      "/@me/pulse /@me/team-pulse 301",
      "/@me/pulse/* /@me/team-pulse/:splat 301",
      "/@me/second /@me/third 301",
      "/@me/second/* /@me/third/:splat 301",
    ]);
  });

  it("leaves a page at the old path that forwards, with the new one as canonical", async () => {
    const html = await readFile(join(outDir, "client/@me/pulse/index.html"), "utf8");
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/@me/team-pulse">');
    expect(html).toContain('<link rel="canonical" href="/@me/team-pulse">');
    expect(existsSync(join(outDir, "client/@me/gone/index.html"))).toBe(false);
    expect(existsSync(join(outDir, "client/@me/gone-too/index.html"))).toBe(false);
  });

  it("a browser on a plain static server lands on the renamed form", async () => {
    const base = await serveStatic(join(outDir, "client"));
    browser = await launch();
    const page = await browser.newPage();
    await page.goto(`${base}/@me/second/`);
    await page.waitForURL(/\/@me\/third\/?$/, { timeout: 30_000 });
    await expect
      .poll(() => page.locator("h1").first().textContent(), { timeout: 30_000 })
      .toBe("Renamed twice");
  });
});
