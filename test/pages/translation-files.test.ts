// SPEC §20: a translation file (<slug>.<lang>.md) beside a form is never built as a form of its
// own: the pages build of the examples, translations included, succeeds and makes one page for
// the form and one for each of its translations.

import { readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { buildPages } from "../../functions/node/build-pages.ts";

const examples = new URL("../fixtures/examples/", import.meta.url).pathname;
const outDir = new URL("../../node_modules/.cache/formdown-translations-build/", import.meta.url)
  .pathname;
let dir = "";

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the pages build with translation files", () => {
  it("builds the examples and skips their translations as forms", async () => {
    dir = await mkdtemp(join(tmpdir(), "formdown-translated-"));
    await mkdir(join(dir, "@me"));
    await cp(examples, join(dir, "@me"), { recursive: true });
    expect(await readdir(join(dir, "@me"))).toContain("product-survey.de.md");
    await buildPages({ outDir, env: { FORMDOWN_FORMS_DIR: dir }, quiet: true });
    const built = (await readdir(outDir, { recursive: true })).map(String);
    // (the static pages sit under client/ beside the adapter's server part)
    expect(built.some((f) => f.endsWith("@me/product-survey/index.html"))).toBe(true);
    expect(built.filter((f) => /product-survey\.(de|ar)/.test(f))).toEqual([]);
    // each translation is a page of its own (SPEC §20), in its language, linked to the others
    const client = join(outDir, "client");
    const page = (path: string) => readFileSync(join(client, path, "index.html"), "utf8");
    const own = page("@me/product-survey");
    const de = page("@me/product-survey/de");
    const ar = page("@me/product-survey/ar");
    expect(de).toContain('<html lang="de" dir="ltr"');
    expect(ar).toContain('<html lang="ar" dir="rtl"');
    expect(de).toContain("<h1>Wie machen wir uns?</h1>");
    // the Markdown below each file's header: the page's intro and its description, in its language
    expect(own).toContain('<meta name="description" content="Five minutes, seven questions.');
    expect(de).toContain('<meta name="description" content="Fünf Minuten, sieben Fragen.');
    expect(ar).toContain('<div class="fd-body"><p>خمس دقائق، سبعة أسئلة.');
    for (const html of [own, de, ar])
      for (const link of ["en", "de", "ar", "x-default"])
        expect(html).toMatch(
          new RegExp(`<link rel="alternate" hreflang="${link}" href="/@me/product-survey`),
        );
    // page weight (gzip -9, the page's scripts with the chunks they import, CSS, HTML): a
    // translation within 10 % of the form
    const asset = (name: string) => readFileSync(join(client, "_astro", name));
    /** A script and what it imports statically (its chunks); dynamic imports load later. */
    const scripts = (name: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(name)) return seen;
      seen.add(name);
      const code = asset(name).toString();
      for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) scripts(m[1]!, seen);
      return seen;
    };
    const assetsOf = (html: string) =>
      [...html.matchAll(/(?:href|src)="\/_astro\/([^"]+)"/g)].map((m) => m[1]!);
    const gz = (name: string) => gzipSync(asset(name), { level: 9 }).length;
    /** The scripts a page loads before it runs: its own and what they import statically. */
    const loadedBy = (html: string) =>
      new Set(
        assetsOf(html)
          .filter((a) => a.endsWith(".js"))
          .flatMap((a) => [...scripts(a)]),
      );
    const weight = (html: string) => {
      const assets = assetsOf(html);
      const loaded = loadedBy(html);
      const js = [...loaded].reduce((n, a) => n + gz(a), 0);
      const css = assets.filter((a) => a.endsWith(".css")).reduce((n, a) => n + gz(a), 0);
      return { js, total: gzipSync(html).length + js + css };
    };
    const [w, wde, war] = [weight(own), weight(de), weight(ar)];
    console.log(
      `gzip bytes: own ${JSON.stringify(w)}, de ${JSON.stringify(wde)}, ar ${JSON.stringify(war)}`,
    );
    // a translation loads exactly the form's scripts: no script per language (the language
    // script is inline, in the HTML weighed below)
    for (const x of [wde, war]) expect(x.js).toBe(w.js);
    // the page's JavaScript budget (issue 27, "tiny page JavaScript"): 8 KB gzip, in any language
    expect(w.js).toBeLessThanOrEqual(8192);
    for (const x of [wde, war])
      expect(Math.abs(x.total - w.total) / w.total).toBeLessThanOrEqual(0.1);
    // ...and beside it, each chunk the page may fetch later (src/runtime/form-element.ts): partial
    // saving (SPEC §25) and a form's logic (SPEC §24) at its start, sending and the ending at the
    // first answer, uploads, ranking, the ALTCHA solver. A chunk counts with what it imports
    // statically that the page has not loaded. The 3D viewer, a library fetched only by pages
    // that show a model, is the one outside the budget.
    const loaded = loadedBy(own);
    const imported = (name: string) =>
      [
        ...asset(name)
          .toString()
          .matchAll(/import\(`\.\/([^`]+\.js)`\)/g),
      ].map((m) => m[1]!);
    const later = new Set([...loaded].flatMap(imported));
    for (const chunk of later)
      for (const file of scripts(chunk)) for (const next of imported(file)) later.add(next);
    const beside = (chunk: string) =>
      [...scripts(chunk)].filter((f) => !loaded.has(f)).reduce((n, f) => n + gz(f), 0);
    const sizes = Object.fromEntries(
      [...later]
        .filter((f) => !f.startsWith("model-viewer."))
        .map((f) => [f.slice(0, f.indexOf(".")), beside(f)]),
    );
    console.log(
      `chunks fetched later (gzip, each beside the page's ${w.js}): ${JSON.stringify(sizes)}`,
    );
    expect(Object.keys(sizes)).toEqual(expect.arrayContaining(["partial", "submit", "finish"]));
    for (const [chunk, bytes] of Object.entries(sizes))
      expect(w.js + bytes, `the page with ${chunk}`).toBeLessThanOrEqual(8192);
    // partial saving and logic are fetched at a page's start: a form with both loads both
    expect(w.js + (sizes.partial ?? 0) + (sizes.logic ?? 0)).toBeLessThanOrEqual(8192);
    // partial saving is a chunk of its own that the page imports only when its form has
    // settings.partial: never in what a page loads up front
    const partial = readdirSync(join(client, "_astro")).find((f) =>
      /^partial\.[\w-]+\.js$/.test(f),
    );
    expect(partial).toBeDefined();
    const entry = [...loaded].find((f) => f.startsWith("form-element."));
    expect(asset(entry!).toString()).toMatch(
      new RegExp(`import\\(.\\./${partial!.replace(".", "\\.")}`),
    );
    for (const html of [own, de, ar]) expect(loadedBy(html).has(partial!)).toBe(false);
  }, 240_000);
});
