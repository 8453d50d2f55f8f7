import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
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

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
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
});
