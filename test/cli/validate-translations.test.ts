// `formdown validate` on a form with languages (SPEC §20): the done-when's first step, run with
// the real CLI in a temporary forms repository (no server needed).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFormdown } from "../helpers/cli.ts";

let work: string;

const EVENT = `---
title: Event feedback
slug: event
languages: [de, ar]
fields:
  - id: name
    type: text
    label: Your name
  - id: role
    type: radio
    label: Your role
    options: [Speaker, Guest]
---

Tell us how it went.
`;

// the German file lacks the label of `role`
const EVENT_DE = `---
title: Rückmeldung zur Veranstaltung
fields:
  name:
    label: Ihr Name
  role:
    options:
      Speaker: Vortragende
      Guest: Gast
---

Erzählen Sie uns, wie es war.
`;

const EVENT_AR = `---
title: ملاحظات حول الفعالية
fields:
  name: { label: اسمك }
  role:
    label: دورك
    options: { Speaker: متحدث, Guest: ضيف }
---

أخبرنا كيف كانت الفعالية.
`;

async function write(dir: string, files: Record<string, string>): Promise<string> {
  const root = join(work, dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const validate = (cwd: string, ...args: string[]) =>
  runFormdown(["validate", ...args], { env: { HOME: work }, cwd });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "formdown-translations-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("formdown validate checks a form's translations", () => {
  it("names the missing German label at its file and line, and the missing Arabic file at the languages line", async () => {
    const cwd = await write("first", {
      "forms/@me/event.md": EVENT,
      "forms/@me/event.de.md": EVENT_DE,
    });
    const res = await validate(cwd);
    expect(res.code).toBe(1);
    expect(res.stdout.trim().split("\n")).toEqual([
      'forms/@me/event.md:4: languages[1]: "ar" has no translation file: add forms/@me/event.ar.md',
      'forms/@me/event.de.md:6: warning: fields.role.label: not translated (the form says "Your role")',
    ]);
    // the translation is not taken for a form of its own (no "slug" or "fields" complaints)
    expect(res.stdout).not.toMatch(/event\.de\.md:\d+: (slug|fields|title)/);
  });

  it("passes once the label and the Arabic file are added; --strict fails on a missing string", async () => {
    const de = EVENT_DE.replace("  role:\n", "  role:\n    label: Ihre Rolle\n");
    const cwd = await write("fixed", {
      "forms/@me/event.md": EVENT,
      "forms/@me/event.de.md": de,
      "forms/@me/event.ar.md": EVENT_AR,
    });
    const ok = await validate(cwd);
    expect([ok.code, ok.stdout]).toEqual([0, ""]);
    expect(ok.stderr).toContain("✓ forms/@me/event.ar.md");

    await writeFile(join(cwd, "forms/@me/event.de.md"), EVENT_DE);
    expect((await validate(cwd)).code).toBe(0);
    const strict = await validate(cwd, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stdout.trim()).toBe(
      'forms/@me/event.de.md:6: fields.role.label: not translated (the form says "Your role")',
    );
  });

  it("errs on a key naming nothing, and on a file whose language the form does not list", async () => {
    const cwd = await write("wrong", {
      "forms/@me/event.md": EVENT.replace("languages: [de, ar]", "languages: [de]"),
      "forms/@me/event.de.md": EVENT_DE.replace("      Guest: Gast", "      Gest: Gast"),
      "forms/@me/event.fr.md": "---\ntitle: Retour\n---\n",
    });
    const res = await validate(cwd, "--json");
    expect(res.code).toBe(1);
    const results = JSON.parse(res.stdout) as {
      file: string;
      kind: string;
      errors: { line: number; path: string; message: string }[];
    }[];
    const de = results.find((r) => r.file === "forms/@me/event.de.md")!;
    expect(de.kind).toBe("translation");
    expect(de.errors).toEqual([
      {
        file: "forms/@me/event.de.md",
        line: 9,
        path: "fields.role.options.Gest",
        message: 'field role has no option "Gest" (did you mean "Guest"?)',
      },
    ]);
    const fr = results.find((r) => r.file === "forms/@me/event.fr.md")!;
    expect(fr.errors[0]?.message).toBe(
      'the form event does not list "fr" in its languages (add it there, or remove this file)',
    );
  });

  it("checks a translation file named alone against the form beside it", async () => {
    const cwd = await write("alone", {
      "forms/@me/event.md": EVENT.replace("languages: [de, ar]", "languages: [de]"),
      "forms/@me/event.de.md": EVENT_DE,
      "forms/@me/orphan.de.md": "---\ntitle: Waise\n---\n",
    });
    const one = await validate(cwd, "forms/@me/event.de.md");
    expect([one.code, one.stdout.trim()]).toEqual([
      0,
      'forms/@me/event.de.md:6: warning: fields.role.label: not translated (the form says "Your role")',
    ]);
    const orphan = await validate(cwd, "forms/@me/orphan.de.md");
    expect(orphan.code).toBe(1);
    expect(orphan.stdout.trim()).toBe(
      "forms/@me/orphan.de.md:1: a translation file lives beside its form, but there is no forms/@me/orphan.md",
    );
  });
});
