import { readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPages } from "../../functions/node/build-pages.ts";
import { formatFormFileError, parseFormFile } from "../../src/core/form-file.ts";

const BROKEN = `---
title: Bad form
slug: bad
fields:
  - id: q
    type: radio
    label: Pick
  - id: Bad-Id
    type: text
---
`;
let dir = "";
const outDir = new URL("../../node_modules/.cache/formdown-broken-build/", import.meta.url)
  .pathname;

const originDir = new URL("../../node_modules/.cache/formdown-origin-build/", import.meta.url)
  .pathname;
const examples = new URL("../fixtures/examples/", import.meta.url).pathname;
let formsDir = "";

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await rm(originDir, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
  if (formsDir) await rm(formsDir, { recursive: true, force: true });
});

describe("the pages build", () => {
  it("fails on a broken form file with the messages formdown validate prints", async () => {
    dir = await mkdtemp(join(tmpdir(), "formdown-broken-"));
    await mkdir(join(dir, "@me"));
    const file = join(dir, "@me", "bad.md");
    await writeFile(file, BROKEN);
    const parsed = parseFormFile(BROKEN, file);
    if (parsed.ok) throw new Error("the fixture should be invalid");
    const expected = parsed.errors.map(formatFormFileError);
    expect(expected).toHaveLength(2);
    const failure = await buildPages({
      outDir,
      env: { FORMDOWN_FORMS_DIR: dir },
      quiet: true,
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).not.toBeNull();
    for (const line of expected) expect(failure).toContain(line);
  }, 120_000);

  // SPEC §17: the pages' origin is written like the API's (`forms.example.com`, a trailing slash)
  it("makes hreflang links absolute on FORMDOWN_PUBLIC_BASE_URL written without a scheme", async () => {
    formsDir = await mkdtemp(join(tmpdir(), "formdown-origin-"));
    await mkdir(join(formsDir, "@me"));
    for (const name of ["product-survey.md", "product-survey.de.md", "product-survey.ar.md"])
      await copyFile(join(examples, name), join(formsDir, "@me", name));
    await buildPages({
      outDir: originDir,
      env: { FORMDOWN_FORMS_DIR: formsDir, FORMDOWN_PUBLIC_BASE_URL: "forms.example.com/" },
      quiet: true,
    });
    const html = readFileSync(join(originDir, "client/@me/product-survey/de/index.html"), "utf8");
    expect(html).toContain(
      '<link rel="alternate" hreflang="de" href="https://forms.example.com/@me/product-survey/de"',
    );
  }, 120_000);

  it("stops on a malformed FORMDOWN_PUBLIC_BASE_URL with one line naming it", async () => {
    const failure = await buildPages({
      outDir: originDir,
      env: { FORMDOWN_FORMS_DIR: examples, FORMDOWN_PUBLIC_BASE_URL: "ftp://forms.example.com" },
      quiet: true,
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain('FORMDOWN_PUBLIC_BASE_URL: "ftp://forms.example.com" must be');
  }, 120_000);
});
