import { describe, expect, it } from "vitest";
import { endingOf } from "./ending.ts";
import { walk } from "./logic/walk.ts";
import { formSchema } from "./schema.ts";

// a quiz's pass and fail endings are two conditional endings on its score (SPEC §24)
const reached = (form: Parameters<typeof walk>[0], answer?: string) =>
  walk(form, answer === undefined ? {} : { a: answer }).ending;

const quiz = (quiz: Record<string, unknown>, ending?: Record<string, unknown>) =>
  formSchema.parse({
    title: "Q",
    slug: "q",
    type: "quiz",
    quiz,
    ...(ending ? { ending } : {}),
    fields: [{ id: "a", type: "yes_no", answer: "yes" }],
  });

describe("which ending a respondent sees", () => {
  const both = quiz(
    { pass_percent: 50, pass_ending: { title: "Pass" }, fail_ending: { title: "Fail" } },
    { title: "Done" },
  );

  it("takes the pass or fail ending of a quiz by whether the respondent passed", () => {
    expect(reached(both, "yes")).toBe("pass");
    expect(reached(both, "no")).toBe("fail");
    expect(endingOf(both, "pass").title).toBe("Pass");
    expect(endingOf(both, "fail").title).toBe("Fail");
  });

  it("falls back to the form's ending when the quiz has no ending for that result", () => {
    const passOnly = quiz({ pass_percent: 50, pass_ending: { title: "Pass" } }, { title: "Done" });
    expect(reached(passOnly, "no")).toBe("default");
    expect(endingOf(passOnly, "default").title).toBe("Done");
  });

  it("uses the form's ending when nobody passes or fails (no pass mark) and for plain forms", () => {
    const noMark = quiz({ pass_ending: undefined }, { title: "Done" });
    expect(reached(noMark, "yes")).toBe("default");
    const plain = formSchema.parse({ title: "F", slug: "f", fields: [{ id: "a", type: "text" }] });
    expect(reached(plain, "x")).toBe("default");
    expect(endingOf(plain, "default")).toEqual({});
  });
});
