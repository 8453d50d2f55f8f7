import { describe, expect, it } from "vitest";
import { formatFormFileError, parseFormFile } from "./form-file.ts";
import { escapeHtml } from "./html.ts";
import { answerText, pipe, pipeRefs, questionLabel } from "./piping.ts";
import { validateForm } from "./validate-form.ts";

describe("pipe", () => {
  const values = {
    answers: { name: "Ada", langs: ["en", "fr"], grid: { a: "x" }, age: 36 },
    hidden: { ref: "news letter" },
    score: { points: 3, percent: 75 },
  };

  it("replaces field, hidden, score and percent placeholders", () => {
    expect(
      pipe(
        "Hi {field:name} ({field:age}), {field:langs} via {hidden:ref}: {score}, {percent}%",
        values,
      ),
    ).toBe("Hi Ada (36), en, fr via news letter: 3, 75%");
  });

  it("pipes an unanswered field, an absent hidden value and a missing score as empty text", () => {
    expect(pipe("[{field:city}|{hidden:utm}|{score}]", { answers: {} })).toBe("[||]");
  });

  it("escapes each value with the encoder it is given, and only the values", () => {
    const evil = { answers: { name: '<img src=x onerror=alert(1)> & "q"' } };
    expect(pipe("<b>{field:name}</b>", evil, escapeHtml)).toBe(
      "<b>&#60;img src=x onerror=alert(1)&#62; &#38; &#34;q&#34;</b>",
    );
    expect(pipe("https://x.test/t?n={field:name}", evil, encodeURIComponent)).toBe(
      "https://x.test/t?n=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%20%26%20%22q%22",
    );
  });

  it("never reads an inherited property as an answer", () => {
    expect(pipe("{field:constructor}{hidden:toString}", { answers: {}, hidden: {} })).toBe("");
  });

  it("leaves text that only looks like a placeholder alone", () => {
    expect(pipe("{name} {field:} {fields:x}", values)).toBe("{name} {field:} {fields:x}");
  });

  it("lists references in order", () => {
    expect(pipeRefs("{percent} {field:a} {hidden:b}")).toEqual([
      { kind: "percent", name: "" },
      { kind: "field", name: "a" },
      { kind: "hidden", name: "b" },
    ]);
  });

  it("writes answers of every shape as text", () => {
    expect(answerText(["a", "b"])).toBe("a, b");
    expect(answerText({ speed: "Good", price: "Fair" })).toBe("speed: Good; price: Fair");
    expect(answerText(undefined)).toBe("");
  });
});

const form = (extra: Record<string, unknown>, fields?: unknown[]) => ({
  title: "T",
  slug: "t",
  fields: fields ?? [
    { id: "name", type: "text", label: "Name", step: 1 },
    { id: "intro", type: "statement", label: "Welcome", step: 2 },
    { id: "city", type: "text", label: "Where do you live, {field:name}?", step: 2 },
  ],
  ...extra,
});
const problems = (input: unknown) => {
  const r = validateForm(input);
  return r.ok ? [] : (r.failure.details ?? []);
};

describe("questionLabel", () => {
  it("names each placeholder in brackets where no one respondent's answers apply", () => {
    expect(questionLabel({ id: "tag", label: "{field:vorname}, an welchem Tag kommst du?" })).toBe(
      "[vorname], an welchem Tag kommst du?",
    );
    expect(questionLabel({ id: "ref", label: "Via {hidden:utm} ({percent})" })).toBe(
      "Via [utm] ([percent])",
    );
    expect(questionLabel({ id: "plain" })).toBe("plain");
  });
});

describe("piping rules", () => {
  it("accepts earlier fields in labels and any field, hidden name or score in endings", () => {
    expect(
      problems(
        form({
          type: "quiz",
          hidden: ["ref"],
          quiz: { pass_percent: 50, pass_ending: { title: "{percent}% — well done {field:name}" } },
          ending: { body: "From {field:city} via {hidden:ref}: {score}" },
        }),
      ),
    ).toEqual([]);
  });

  it("refuses a later, unknown, own or statement field, an undeclared hidden name, a score outside a quiz", () => {
    const found = problems(
      form(
        {
          ending: { title: "{score} {hidden:utm}", redirect_url: "https://x.test/?c={field:nope}" },
        },
        [
          { id: "a", type: "text", label: "{field:b} and {field:a}" },
          { id: "b", type: "statement", label: "Note" },
          { id: "c", type: "text", placeholder: "{field:b}" },
        ],
      ),
    );
    expect(found).toEqual([
      { field: "fields[0].label", message: "pipes {field:b}, which comes later" },
      { field: "fields[0].label", message: "pipes {field:a}, its own answer" },
      {
        field: "fields[2].placeholder",
        message: "pipes {field:b}, a statement, which has no answer",
      },
      { field: "ending.title", message: "{score} is only known in a quiz's ending" },
      { field: "ending.title", message: 'pipes {hidden:utm}, but "utm" is not listed in hidden' },
      {
        field: "ending.redirect_url",
        message: "pipes {field:nope}, which is not a field of this form",
      },
    ]);
  });

  it("refuses pass and fail endings without a pass mark or outside a quiz, and a redirect that is not http(s)", () => {
    expect(problems(form({ type: "quiz", quiz: { fail_ending: { title: "Sorry" } } }))).toEqual([
      { field: "quiz.fail_ending", message: "needs quiz.pass_percent to decide who passed" },
    ]);
    expect(problems(form({ quiz: { pass_ending: { title: "Yay" } } }))[0]?.message).toMatch(
      /only a quiz/,
    );
    expect(problems(form({ ending: { redirect_url: "javascript:alert(1)" } }))).toEqual([
      { field: "ending.redirect_url", message: "must be an http:// or https:// URL" },
    ]);
    expect(problems(form({ ending: { redirect_url: "https://{field:name}.test/" } }))).toHaveLength(
      1,
    );
  });

  it("refuses a pipe from the same page, and accepts one from an earlier step or survey question", () => {
    const fields = (nameStep?: number) => [
      { id: "vorname", type: "text", label: "Vorname", ...(nameStep ? { step: nameStep } : {}) },
      { id: "tag", type: "text", label: "{field:vorname}, an welchem Tag kommst du?", step: 2 },
    ];
    expect(problems(form({}, fields(2)))).toEqual([
      {
        field: "fields[1].label",
        message:
          "pipes {field:vorname}, which is on the same page: pipe only from an earlier page (give the fields different steps)",
      },
    ]);
    expect(problems(form({}, fields(1)))).toEqual([]);
    const survey = fields().map(({ step: _, ...f }) => f);
    expect(problems(form({ type: "survey" }, survey))).toEqual([]);
    expect(problems(form({}, survey))).toHaveLength(1);
  });

  it("reports a same-page pipe in a form file at file:line", () => {
    const text = `---
title: T
slug: t
fields:
  - id: vorname
    type: text
  - id: tag
    type: text
    label: "{field:vorname}, an welchem Tag kommst du?"
---
`;
    const parsed = parseFormFile(text, "t.md");
    expect(!parsed.ok && parsed.errors.map(formatFormFileError)).toEqual([
      "t.md:9: fields[1] (tag).label: pipes {field:vorname}, which is on the same page: pipe only from an earlier page (give the fields different steps)",
    ]);
  });

  it("reports a forward pipe in a form file at the line of the label", () => {
    const text = `---
title: T
slug: t
fields:
  - id: greeting
    type: statement
    label: "Hello {field:name}"
  - id: name
    type: text
---
`;
    const parsed = parseFormFile(text, "t.md");
    expect(!parsed.ok && parsed.errors.map(formatFormFileError)).toEqual([
      "t.md:7: fields[0] (greeting).label: pipes {field:name}, which comes later",
    ]);
  });
});
