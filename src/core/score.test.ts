import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFormFile } from "./form-file.ts";
import { publicForm } from "./public-form.ts";
import { type Form, type FormInput, formSchema } from "./schema.ts";
import { quizFeedback, scoreQuiz } from "./score.ts";

const quizFile = new URL("../../test/fixtures/examples/quiz.md", import.meta.url).pathname;
const example = (() => {
  const parsed = parseFormFile(readFileSync(quizFile, "utf8"), quizFile);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.form;
})();

const quiz = (input: Partial<FormInput>): Form =>
  formSchema.parse({ title: "Q", slug: "q", type: "quiz", ...input });

describe("scoreQuiz on the example quiz (1 + 2 + 1 points, pass at 60%)", () => {
  it("gives full marks for the answer key, with checkbox answers in any order", () => {
    expect(
      scoreQuiz(example, {
        http_status: "404",
        safe_methods: ["HEAD", "GET"],
        https_default: "yes",
      }),
    ).toEqual({ points: 4, max_points: 4, percent: 100, passed: true });
  });

  it("scores each question on its own and ignores unscored fields", () => {
    expect(
      scoreQuiz(example, { http_status: "404", safe_methods: ["GET"], nickname: "ada" }),
    ).toEqual({ points: 1, max_points: 4, percent: 25, passed: false });
    expect(scoreQuiz(example, { safe_methods: ["GET", "HEAD"], https_default: "yes" })).toEqual({
      points: 3,
      max_points: 4,
      percent: 75,
      passed: true,
    });
  });

  it("a checkbox answer with an extra wrong choice earns nothing", () => {
    expect(scoreQuiz(example, { safe_methods: ["GET", "HEAD", "POST"] })).toMatchObject({
      points: 0,
    });
  });

  it("an empty payload scores zero out of the full total", () => {
    expect(scoreQuiz(example, {})).toEqual({
      points: 0,
      max_points: 4,
      percent: 0,
      passed: false,
    });
  });
});

describe("scoreQuiz rules", () => {
  it("returns null for a form or survey", () => {
    const form = formSchema.parse({ title: "F", slug: "f", fields: [{ id: "a", type: "text" }] });
    expect(scoreQuiz(form, { a: "x" })).toBeNull();
    expect(scoreQuiz({ ...form, type: "survey" }, { a: "x" })).toBeNull();
  });

  it("points default to 1; passed is null without pass_percent", () => {
    const q = quiz({
      fields: [
        { id: "a", type: "yes_no", answer: "yes" },
        { id: "b", type: "number", answer: 42 },
      ],
    });
    expect(scoreQuiz(q, { a: "yes", b: 41 })).toEqual({
      points: 1,
      max_points: 2,
      percent: 50,
      passed: null,
    });
  });

  it("compares rankings and matrices exactly (order matters in a ranking)", () => {
    const q = quiz({
      fields: [
        { id: "r", type: "ranking", options: ["a", "b", "c"], answer: ["c", "b", "a"] },
        {
          id: "m",
          type: "matrix",
          rows: [
            { id: "x", label: "X" },
            { id: "y", label: "Y" },
          ],
          columns: ["p", "q"],
          answer: { x: "p", y: "q" },
        },
      ],
    });
    expect(scoreQuiz(q, { r: ["c", "b", "a"], m: { y: "q", x: "p" } })?.points).toBe(2);
    expect(scoreQuiz(q, { r: ["a", "b", "c"], m: { x: "p" } })?.points).toBe(0);
  });

  it("text answers must match exactly", () => {
    const q = quiz({ fields: [{ id: "t", type: "text", answer: "Paris" }] });
    expect(scoreQuiz(q, { t: "Paris" })?.points).toBe(1);
    expect(scoreQuiz(q, { t: "paris" })?.points).toBe(0);
  });

  it("rounds percent to one decimal", () => {
    const q = quiz({
      fields: [
        { id: "a", type: "yes_no", answer: "yes" },
        { id: "b", type: "yes_no", answer: "yes" },
        { id: "c", type: "yes_no", answer: "yes" },
      ],
    });
    expect(scoreQuiz(q, { a: "yes" })?.percent).toBe(33.3);
    expect(scoreQuiz(q, { a: "yes", b: "yes" })?.percent).toBe(66.7);
  });

  it("passes at exactly pass_percent, and judges the exact ratio rather than the rounded one", () => {
    const exact = quiz({
      quiz: { pass_percent: 50 },
      fields: [
        { id: "a", type: "yes_no", answer: "yes" },
        { id: "b", type: "yes_no", answer: "yes" },
      ],
    });
    expect(scoreQuiz(exact, { a: "yes" })?.passed).toBe(true);
    // 1499 / 2500 = 59.96%, shown as 60 but below a 60% bar
    const close = quiz({
      quiz: { pass_percent: 60 },
      fields: [
        { id: "a", type: "yes_no", answer: "yes", points: 1499 },
        { id: "b", type: "yes_no", answer: "yes", points: 1001 },
      ],
    });
    expect(scoreQuiz(close, { a: "yes" })).toEqual({
      points: 1499,
      max_points: 2500,
      percent: 60,
      passed: false,
    });
  });

  it("a quiz with no answer key scores 0 of 0", () => {
    const q = quiz({ quiz: { pass_percent: 0 }, fields: [{ id: "a", type: "text" }] });
    expect(scoreQuiz(q, { a: "x" })).toEqual({
      points: 0,
      max_points: 0,
      percent: 0,
      passed: true,
    });
  });

  it("an unanswered field never matches through the prototype", () => {
    const q = quiz({ fields: [{ id: "constructor", type: "text", answer: "x" }] });
    expect(scoreQuiz(q, {})?.points).toBe(0);
    expect(scoreQuiz(q, { constructor: "x" })?.points).toBe(1);
  });
});

describe("publicForm keeps the answer key from respondents", () => {
  const pub = publicForm(example);

  it("drops every answer and explanation but keeps the questions", () => {
    expect(example.fields.some((f) => f.answer !== undefined)).toBe(true);
    for (const field of pub.fields) {
      expect(field).not.toHaveProperty("answer");
      expect(field).not.toHaveProperty("explanation");
    }
    expect(JSON.stringify(pub)).not.toContain("404 is the status");
    expect(pub.fields.map((f) => [f.id, f.type, f.label])).toEqual(
      example.fields.map((f) => [f.id, f.type, f.label]),
    );
  });

  it("drops the notification recipients and leaves the original untouched", () => {
    const form = formSchema.parse({
      title: "F",
      slug: "f",
      notifications: { email: ["owner@example.com"], subject: "New" },
      fields: [{ id: "a", type: "text" }],
    });
    const p = publicForm(form);
    expect(p.notifications.email).toEqual([]);
    expect(p.notifications.subject).toBe("New");
    expect(form.notifications.email).toEqual(["owner@example.com"]);
    expect(example.fields[0]!.answer).toBe("404");
  });
});

describe("quizFeedback", () => {
  const quiz = formSchema.parse({
    title: "Q",
    slug: "q",
    type: "quiz",
    fields: [
      { id: "a", type: "yes_no", answer: "yes", explanation: "Because." },
      { id: "b", type: "checkbox", options: ["x", "y"], answer: ["x", "y"] },
      { id: "nick", type: "text" },
    ],
  });

  it("marks each scored question right or wrong and carries its explanation, never the key", () => {
    const feedback = quizFeedback(quiz, { a: "yes", b: ["y"], nick: "z" });
    expect(feedback).toEqual([
      { field: "a", correct: true, explanation: "Because." },
      { field: "b", correct: false },
    ]);
    expect(JSON.stringify(feedback)).not.toContain('"x"');
  });

  it("gives nothing for a form that is not a quiz", () => {
    expect(quizFeedback({ ...quiz, type: "form" }, { a: "yes" })).toEqual([]);
  });
});
