// SPEC §24: logic tests as code. `formdown test` runs the example's cases offline and passes; the
// broken copy (its Enterprise jump removed) fails with the file:line of the case that caught it.
// `formdown paths` lists each path with answers that take it.
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runFormdown } from "../helpers/cli.ts";

const fixtures = new URL("../fixtures/", import.meta.url).pathname;
let work: string;
const formdown = (...args: string[]) => runFormdown(args, { env: {}, cwd: work });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "formdown-logic-"));
  await mkdir(join(work, "forms/@me"), { recursive: true });
  await mkdir(join(work, "broken"), { recursive: true });
  await mkdir(join(work, "more"), { recursive: true });
  for (const f of ["quote.md", "quote.test.yaml", "contact.md"])
    await copyFile(join(fixtures, "examples", f), join(work, "forms/@me", f));
  for (const f of ["quote.md", "quote.test.yaml"])
    await copyFile(join(fixtures, "logic", f), join(work, "broken", f));
});

describe("formdown test", () => {
  it("passes the example's cases (forms without tests are left alone)", async () => {
    const run = await formdown("test");
    expect(run.stderr).toContain("✓ forms/@me/quote.md: 9 of 9 cases pass");
    expect(run.stderr).not.toContain("contact");
    expect(run.code).toBe(0);
  });

  it("fails the broken copy at the failing case's file:line, exit 1", async () => {
    const run = await formdown("test", "broken/quote.md");
    expect(run.stdout.trim()).toBe(
      'broken/quote.test.yaml:2: "Enterprise jumps to the contact page and reaches sales": hidden_fields.integrations: expected "hidden", got "shown"',
    );
    expect(run.stderr).toContain("error: 1 of 9 cases fail (test_failed)");
    expect(run.code).toBe(1);
  });

  it("runs tests: in the form file too, reported at the case's line, and --json", async () => {
    await writeFile(
      join(work, "more/inline.md"),
      [
        "---",
        "title: Inline",
        "slug: inline",
        "variables:",
        "  - { id: double, value: 'n * 2' }",
        "fields:",
        "  - { id: n, type: number }",
        "tests:",
        "  - name: doubles",
        "    answers: { n: 2 }",
        "    expect: { variables: { double: 4 } }",
        "  - name: wrong on purpose",
        "    answers: { n: 3 }",
        "    expect: { variables: { double: 5 } }",
        "---",
        "",
      ].join("\n"),
    );
    const run = await formdown("test", "more/inline.md");
    expect(run.stdout.trim()).toBe(
      'more/inline.md:12: "wrong on purpose": variables.double: expected 5, got 6',
    );
    expect(run.code).toBe(1);
    const json = await formdown("test", "--json", "more/inline.md");
    const [report] = JSON.parse(json.stdout) as {
      passed: number;
      failed: number;
      results: { name: string; passed: boolean; failures: unknown[] }[];
    }[];
    expect(report!.passed).toBe(1);
    expect(report!.results[1]).toMatchObject({
      name: "wrong on purpose",
      passed: false,
      failures: [{ path: "variables.double", expected: 5, got: 6 }],
    });
  });

  it("reports a test file that cannot be read as cases at its line", async () => {
    await copyFile(join(fixtures, "examples/quote.md"), join(work, "more/quote.md"));
    await writeFile(join(work, "more/quote.test.yaml"), "- name: no expect\n  answers: {}\n");
    const run = await formdown("test", "more/quote.test.yaml");
    expect(run.stdout).toContain("more/quote.test.yaml:1: [0].expect: is required");
    expect(run.code).toBe(1);
  });
});

describe("formdown paths", () => {
  it("lists each distinct path (pages, ending) with answers that take it", async () => {
    const run = await formdown("paths", "quote");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.filter((l) => /^\d+\. /.test(l))).toEqual([
      "1. Your plan → About you → ending quote",
      "2. Your plan → About you → ending sales",
      "3. Your plan → Your needs → About you → ending quote",
      "4. Your plan → Your needs → About you → ending sales",
    ]);
    expect(lines[1]).toContain('"plan":"Starter"');
  });
});
