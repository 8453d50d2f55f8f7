import { describe, expect, it } from "vitest";
import { formSchema } from "../schema.ts";
import { answersFit, diffForms, diffTranslations, finishPlan, planLines } from "./plan.ts";

const form = (fields: unknown[], extra: Record<string, unknown> = {}) =>
  formSchema.parse({ title: "Pulse", slug: "pulse", fields, ...extra });

const base = [
  { id: "fix", type: "text" },
  { id: "budget", type: "number" },
  { id: "plan", type: "radio", options: ["Free", "Pro"] },
];

const kinds = (old: ReturnType<typeof form> | null, next: ReturnType<typeof form>) =>
  diffForms(old, next).map((c) => [c.kind, c.field, c.option]);

describe("diffForms", () => {
  it("names a new form as created, with nothing to count", () => {
    const draft = diffForms(null, form(base));
    expect(draft).toEqual([{ kind: "form_created", detail: "form pulse (3 fields)" }]);
  });

  it("finds no change between equal definitions", () => {
    expect(diffForms(form(base), form(base))).toEqual([]);
  });

  it("reads a field whose formerly names a gone id as a rename that counts the old answers", () => {
    const next = form([{ id: "fix_first", type: "text", formerly: ["fix"] }, ...base.slice(1)]);
    const draft = diffForms(form(base), next);
    expect(draft).toEqual([
      {
        kind: "field_renamed",
        field: "fix_first",
        detail: "field fix → fix_first (formerly)",
        count: { keys: ["fix"] },
      },
    ]);
  });

  it("marks a removed field as losing its answers, counted under all its ids", () => {
    const old = form([{ id: "fix_first", type: "text", formerly: ["fix"] }, base[1]]);
    const [c] = diffForms(old, form([base[1]]));
    expect(c).toMatchObject({ kind: "field_removed", field: "fix_first", loses: true });
    expect(c!.count).toEqual({ keys: ["fix_first", "fix"] });
  });

  it("tells option renames (formerly), additions and removals apart", () => {
    const next = form([
      base[0],
      base[1],
      { id: "plan", type: "radio", options: [{ label: "Starter", formerly: ["Free"] }, "Team"] },
    ]);
    expect(kinds(form(base), next)).toEqual([
      ["option_renamed", "plan", "Starter"],
      ["option_added", "plan", "Team"],
      ["option_removed", "plan", "Pro"],
    ]);
    const removed = diffForms(form(base), next).find((c) => c.kind === "option_removed");
    expect(removed).toMatchObject({
      count: { keys: ["plan"], value: "Pro", list: false },
      loses: true,
    });
  });

  it("takes a select's option with earlier labels too", () => {
    const old = form([{ id: "size", type: "select", options: ["S", "M"] }]);
    const next = form([
      { id: "size", type: "select", options: [{ label: "Small", formerly: ["S"] }, "M"] },
    ]);
    expect(kinds(old, next)).toEqual([["option_renamed", "size", "Small"]]);
  });

  it("says whether answers fit a changed type", () => {
    const next = form([{ id: "fix", type: "textarea" }, { id: "budget", type: "text" }, base[2]]);
    const draft = diffForms(form(base), next);
    expect(draft.map((c) => [c.kind, c.field, c.loses])).toEqual([
      ["field_type_changed", "fix", false],
      ["field_type_changed", "budget", true],
    ]);
    expect(answersFit("rating", "number")).toBe(true);
    expect(answersFit("checkbox", "radio")).toBe(false);
  });

  it("reports an added required field, rule changes, closing and content", () => {
    const next = form(
      [
        { ...base[0], required: true },
        base[1],
        base[2],
        { id: "company", type: "text", required: true },
      ],
      { title: "Pulse 2", access: { mode: "closed" } },
    );
    expect(diffForms(form(base), next).map((c) => [c.kind, c.detail])).toEqual([
      ["rule_changed", "rule fix: required (now required)"],
      ["field_added", "field company (text, required)"],
      ["closed", "form closed (access: closed)"],
      ["content_changed", "content: title"],
    ]);
  });
  it("names the one field that moved, with its new neighbour, and nothing else", () => {
    const [fix, budget, plan] = base;
    expect(diffForms(form(base), form([budget, plan, fix])).map((c) => c.detail)).toEqual([
      "field fix moved after plan",
    ]);
    expect(diffForms(form(base), form([plan, fix, budget])).map((c) => c.detail)).toEqual([
      "field plan moved first",
    ]);
    // a removed field is removed, not a move of the fields after it
    expect(kinds(form(base), form([fix, plan]))).toEqual([["field_removed", "budget", undefined]]);
  });
});

describe("finishPlan", () => {
  it("is destructive only when a losing change has answers, and prints one line per change", () => {
    const draft = diffForms(
      form(base),
      form([{ id: "fix_first", type: "text", formerly: ["fix"] }, base[2]]),
    );
    const safe = finishPlan("pulse", 3, draft, [8, 0]);
    expect(safe.destructive).toBe(false);
    const lost = finishPlan("pulse", 3, draft, [8, 312]);
    expect(lost.destructive).toBe(true);
    expect(lost.summary).toMatch(/Destructive: 312 answers/);
    expect(planLines(lost)).toEqual([
      "~ field fix → fix_first (formerly): 8 answers follow",
      "- field budget: 312 answers retired",
    ]);
    expect(lost.changes[1]).toEqual({
      kind: "field_removed",
      field: "budget",
      detail: "field budget",
      answers_affected: 312,
    });
  });
});

describe("diffTranslations", () => {
  const multi = (languages: string[]) =>
    form([{ id: "role", type: "radio", label: "Role", options: ["Design", "Code"] }], {
      languages,
    });
  const de = {
    title: "Puls",
    fields: { role: { label: "Rolle", options: { Design: "Gestaltung", Code: "Programm" } } },
  };
  const live = (languages: string[], translations: Record<string, unknown>) => ({
    definition: multi(languages),
    translations: translations as never,
  });

  it("names a new language with its number of strings, and a dropped one as removed", () => {
    const draft = diffTranslations(live(["ar"], { ar: { title: "نبض" } }), multi(["de"]), { de });
    expect(draft).toEqual([
      { kind: "translation_added", lang: "de", detail: "translation de (4 strings)" },
      { kind: "translation_removed", lang: "ar", detail: "translation ar" },
    ]);
  });

  it("says which strings of a language changed, a few by key and the rest counted", () => {
    const next = {
      title: "Der Puls",
      fields: { role: { label: "Ihre Rolle", options: { Design: "Entwurf" } } },
    };
    const [one] = diffTranslations(live(["de"], { de }), multi(["de"]), { de: next });
    expect(one).toEqual({
      kind: "translation_changed",
      lang: "de",
      detail:
        "translation de: 4 strings changed (title, fields.role.label, fields.role.options.Design, 1 more)",
    });
    const [label] = diffTranslations(live(["de"], { de }), multi(["de"]), {
      de: { ...de, title: "Puls!" },
    });
    expect(label?.detail).toBe("translation de: 1 string changed (title)");
  });

  it("finds nothing when the strings are the same, or when a request carries no translations", () => {
    expect(diffTranslations(live(["de"], { de }), multi(["de"]), { de })).toEqual([]);
    expect(diffTranslations(live(["de"], { de }), multi(["de"]), undefined)).toEqual([]);
  });

  it("reads a language dropped from languages as removed even when no translations are sent", () => {
    expect(diffTranslations(live(["de"], { de }), multi([]), undefined)).toEqual([
      { kind: "translation_removed", lang: "de", detail: "translation de" },
    ]);
  });

  it("counts no answers and is never destructive, printed with the plan's signs", () => {
    const draft = diffTranslations(
      live(["ar", "de"], { ar: { title: "نبض" }, de }),
      multi(["de"]),
      {
        de: { ...de, title: "Der Puls" },
      },
    );
    const plan = finishPlan(
      "pulse",
      2,
      draft,
      draft.map(() => 0),
    );
    expect(plan.destructive).toBe(false);
    expect(plan.changes.every((c) => c.answers_affected === 0)).toBe(true);
    expect(planLines(plan)).toEqual([
      "~ translation de: 1 string changed (title)",
      "- translation ar",
    ]);
  });
});
