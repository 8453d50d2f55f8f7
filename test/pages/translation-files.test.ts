// SPEC §20: a translation file (<slug>.<lang>.md) beside a form is never built as a form of its
// own: the pages build of the examples, translations included, succeeds and makes one page each.
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  }, 240_000);
});
