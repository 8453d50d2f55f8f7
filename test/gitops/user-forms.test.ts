// SPEC §15: the project's tests never depend on the user's forms/. A copy of this checkout whose
// forms/ a user has changed (a form added, an example edited, one deleted, another handler's
// folder) runs the core suites and the file-integrity suite, which must pass there too.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
let clone = "";
afterAll(async () => {
  if (clone) await rm(clone, { recursive: true, force: true });
});

describe("the suites do not read the user's forms/", () => {
  it("pass in a copy of the checkout whose forms/ the user changed", async () => {
    clone = await mkdtemp(join(tmpdir(), "formdown-clone-"));
    const files = execFileSync(
      "git",
      ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      { maxBuffer: 1 << 24 },
    )
      .toString()
      .split("\0")
      .filter(Boolean);
    for (const f of files) {
      await mkdir(dirname(join(clone, f)), { recursive: true });
      await copyFile(join(root, f), join(clone, f)).catch(() => {}); // deleted but still listed
    }
    await symlink(join(root, "node_modules"), join(clone, "node_modules"));
    // what a user does after reading the README
    const fixtures = join(root, "test/fixtures/authored");
    await copyFile(join(fixtures, "team-lunch.md"), join(clone, "forms/@me/team-lunch.md"));
    await mkdir(join(clone, "forms/@acme"), { recursive: true });
    await copyFile(join(fixtures, "signup.md"), join(clone, "forms/@acme/signup.md"));
    const contact = join(clone, "forms/@me/contact.md");
    await writeFile(
      contact,
      (await readFile(contact, "utf8"))
        .replace("title: Contact us", "title: Write to us # our wording")
        .replace("  - id: reply", "  - id: phone\n    type: text\n  - id: reply"),
    );
    await unlink(join(clone, "forms/@me/quiz.md"));

    const run = spawnSync(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "src/core",
        "test/gitops/file-integrity.test.ts",
        "--reporter=dot",
      ],
      { cwd: clone, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the runner's colours
    expect(run.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+\d+ passed \(\d+\)/);
  }, 240_000);
});
