import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFormFile } from "./form-file.ts";
import { sameJson } from "./form-minimal.ts";
import { editFormFile, serialiseForm } from "./form-write.ts";
import { diffLines } from "./line-diff.ts";
import { type Form, formSchema } from "./schema.ts";
import { isTranslationFile } from "./translation-file.ts";

const fixtures = new URL("../../test/fixtures/", import.meta.url).pathname;
const files = ["examples", "authored"].flatMap((dir) =>
  readdirSync(join(fixtures, dir))
    .filter((f) => f.endsWith(".md") && !isTranslationFile(f))
    .map((f) => join(dir, f)),
);
const read = (name: string) => readFileSync(join(fixtures, name), "utf8");
const formOf = (text: string): Form => {
  const parsed = parseFormFile(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.form;
};
/** Applies `change` to a copy of the file's form, edits the file, and returns the line hunks. */
const edit = (name: string, change: (form: Form) => void) => {
  const text = read(name);
  const after = structuredClone(formOf(text));
  change(after);
  const edited = editFormFile(text, formSchema.parse(after));
  expect(sameJson(formOf(edited), formSchema.parse(after))).toBe(true);
  return { text, edited, hunks: diffLines(text.split("\n"), edited.split("\n")) };
};

describe("an author's file is never re-printed", () => {
  it.each(files)("%s: the same definition gives the same bytes", (name) => {
    const text = read(name);
    expect(editFormFile(text, formOf(text))).toBe(text);
  });

  it.each(files)("%s: a new title changes one line and nothing else", (name) => {
    const { hunks, edited } = edit(name, (f) => {
      f.title = "A new title";
    });
    expect(hunks).toHaveLength(1);
    expect(hunks[0]!.to - hunks[0]!.from).toBe(1);
    expect(hunks[0]!.lines).toHaveLength(1);
    expect(hunks[0]!.lines[0]).toMatch(/^title: .*A new title/);
    // every comment of the original is still there
    const comments = (s: string) =>
      s.split("\n").filter((l) => l.includes(" # ") || /^\s*#/.test(l));
    expect(comments(edited)).toEqual(comments(read(name)));
  });

  it.each(files)(
    "%s: an appended field is one hunk of added lines at the end of fields",
    (name) => {
      const { hunks, text } = edit(name, (f) => {
        f.fields.push({ id: "extra_note", type: "text", label: "Anything else?" } as never);
      });
      expect(hunks).toHaveLength(1);
      expect(hunks[0]!.to).toBe(hunks[0]!.from); // only insertions
      expect(hunks[0]!.lines.join("\n")).toMatch(
        /id: extra_note\n\s+type: text\n\s+label: Anything else\?/,
      );
      expect(text.split("\n")[hunks[0]!.from]).toBe("---");
    },
  );

  it.each(files)("%s: a changed label changes that line only", (name) => {
    const { hunks } = edit(name, (f) => {
      f.fields[1]!.label = "Reworded question";
    });
    expect(hunks).toHaveLength(1);
    expect(hunks[0]!.lines).toEqual([expect.stringMatching(/label: "?Reworded question"?$/)]);
  });

  it.each(files)("%s: a removed field takes only its own lines", (name) => {
    const { hunks, text } = edit(name, (f) => {
      const last = f.fields.at(-1)!.id;
      f.fields = f.fields.filter((x) => x.id !== last && x.show_if?.field !== last);
    });
    expect(hunks).toHaveLength(1);
    expect(hunks[0]!.lines).toEqual([]);
    const removed = text.split("\n").slice(hunks[0]!.from, hunks[0]!.to);
    expect(removed.filter((l) => /^\s*- /.test(l))).toHaveLength(1);
  });

  it("adds a key where the documented order puts it, and a setting inside its block", () => {
    const { hunks } = edit("authored/feedback.md", (f) => {
      f.fields[1]!.required = true;
      f.settings.closes_at = "2027-01-31T00:00:00.000Z";
    });
    expect(hunks.map((h) => h.lines)).toEqual([
      ["settings:", '  closes_at: "2027-01-31T00:00:00.000Z"'],
      ["    required: true"],
    ]);
  });

  it("keeps the author's quoting and inline maps when a value inside them changes", () => {
    const { hunks } = edit("authored/team-lunch.md", (f) => {
      f.settings.progress_bar = false;
      f.fields[1]!.label = "How many people eat with you?";
      const spice = f.fields[3]!;
      if (spice.show_if) spice.show_if.value = "Pizza";
    });
    expect(hunks.map((h) => h.lines)).toEqual([
      ["settings: {progress_bar: false}   # authors may write short maps inline"],
      ['    label: "How many people eat with you?"'],
      ["    show_if: {field: cuisine, op: eq, value: Pizza}"],
    ]);
  });

  it("changes only the body below the header when the body changes", () => {
    const { hunks, text } = edit("authored/feedback.md", (f) => {
      f.body = "Thanks for coming!";
    });
    const close = text.split("\n").lastIndexOf("---");
    expect(hunks.every((h) => h.from > close)).toBe(true);
  });

  it("moves a field's own lines when the fields are reordered; blank lines keep their places", () => {
    const { text, edited } = edit("authored/team-lunch.md", (f) => {
      const [name, size] = f.fields;
      f.fields.splice(0, 2, size!, name!);
    });
    const sorted = (t: string) => t.split("\n").sort();
    expect(sorted(edited)).toEqual(sorted(text));
    expect(edited).toContain("    step: About you\n\n  - label: Your name\n");
    expect(edited).toContain("  # --- page one: who are you\n  - id: team_size\n");
  });

  it("keeps Windows line ends", () => {
    const text = read("authored/signup.md").replace(/\n/g, "\r\n");
    const after = formOf(text);
    after.title = "Beta waitlist";
    const edited = editFormFile(text, after);
    expect(edited).toBe(text.replace('title: "Beta signup"', 'title: "Beta waitlist"'));
  });
});

describe("a form made through the API gets a minimal file", () => {
  const form = formSchema.parse({
    fields: [
      { id: "name", type: "text", label: "Name" },
      {
        label: "Score",
        type: "scale",
        id: "score",
        required: true,
        show_if: { field: "name", op: "neq", value: "" },
      },
    ],
    slug: "api-made",
    title: "Made by an agent",
    body: "Hello.",
  });

  it("writes only what differs from the defaults, in the documented order", () => {
    expect(serialiseForm(form)).toBe(
      [
        "---",
        "title: Made by an agent",
        "slug: api-made",
        "fields:",
        "  - id: name",
        "    type: text",
        "    label: Name",
        "  - id: score",
        "    type: scale",
        "    label: Score",
        "    required: true",
        '    show_if: { field: name, op: neq, value: "" }',
        "---",
        "",
        "Hello.",
        "",
      ].join("\n"),
    );
  });

  it.each(files)("%s: its minimal file means the same form", (name) => {
    const before = formOf(read(name));
    const text = serialiseForm(before);
    expect(sameJson(formOf(text), before)).toBe(true);
    for (const noise of ["humanness: true", "points: 1", "max_length: 10000", "required: false"])
      expect(text).not.toContain(noise);
  });
});

describe("text that YAML 1.1 would read as something else", () => {
  it("is quoted, so a date-like label or a yes option comes back as text", () => {
    const form = formSchema.parse({
      title: "2026-01-01",
      slug: "tricky",
      fields: [
        {
          id: "a",
          type: "radio",
          label: "on",
          options: ["yes", "no", "1_000", "0755", "1:20", "~"],
        },
      ],
    });
    const text = serialiseForm(form);
    expect(text).toContain('title: "2026-01-01"');
    expect(sameJson(formOf(text), form)).toBe(true);
    const edited = editFormFile(text, { ...form, title: "2027-02-02" });
    expect(edited).toContain('title: "2027-02-02"');
    expect(formOf(edited).title).toBe("2027-02-02");
  });
});
