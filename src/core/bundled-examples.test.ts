import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLED_EXAMPLES } from "./bundled-examples.ts";
import { answerable } from "./dropoff.ts";
import { parseFormFile } from "./form-file.ts";
import { isTranslationFile } from "./translation-file.ts";

const WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
// the examples as test/fixtures/examples keeps them: the suites never read the user's forms/
// (SPEC §15; test/gitops/user-forms.test.ts runs this file in a checkout whose forms/ changed)
const fixtures = new URL("../../test/fixtures/examples/", import.meta.url);

describe("the bundled examples' intros", () => {
  it("count the questions the page's counter counts (those shown without a condition)", () => {
    let checked = 0;
    for (const path of BUNDLED_EXAMPLES.filter((p) => !isTranslationFile(p))) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const parsed = parseFormFile(readFileSync(new URL(name, fixtures), "utf8"), path);
      if (!parsed.ok) throw new Error(`${path} does not parse`);
      const said = /\b(one|two|three|four|five|six|seven|eight|nine|ten) questions\b/i.exec(
        parsed.form.body ?? "",
      );
      if (!said) continue;
      // a quiz's questions are those with an answer (a nickname field is no question)
      const quiz = parsed.form.type === "quiz";
      const shown = answerable(parsed.form.fields).filter((f) =>
        quiz ? "answer" in f && f.answer !== undefined : !f.show_if,
      ).length;
      expect(`${path}: ${said[1]!.toLowerCase()}`).toBe(`${path}: ${WORDS[shown - 1]}`);
      checked++;
    }
    // product-survey ("seven questions", "1 of 7") and quiz ("Three questions")
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});
