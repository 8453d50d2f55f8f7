import { describe, expect, it } from "vitest";
import { SUBJECT_ANSWER_MAX, subjectAnswer } from "./subject-answer.ts";

describe("an answer piped into a subject (SPEC §23)", () => {
  it("drops links of every kind and keeps the words", () => {
    expect(
      subjectAnswer("URGENT: your bank account is locked, log in at http://evil.example/login now"),
    ).toBe("URGENT: your bank account is locked, log in at now");
    for (const link of [
      "https://evil.example",
      "HTTP://EVIL.EXAMPLE/a?b=c",
      "www.evil.example",
      "evil.example/login",
      "evil.example",
      "login.evil.co.uk/x",
      "mailto:x@y.example",
      "//evil.example/x",
      "ftp://files.example",
      "evil．example", // a fullwidth dot
      "javascript:alert(1)",
    ])
      expect(subjectAnswer(`go ${link} here`), link).toBe("go here");
  });

  it("keeps plain answers as they are", () => {
    for (const text of [
      "Ann Lee",
      "Zoë Müller-Lüdenscheidt",
      "3.5 stars",
      "e.g. soon",
      "Dr. No",
      "30 km/h",
    ])
      expect(subjectAnswer(text)).toBe(text);
  });

  it("is one line without control or invisible characters", () => {
    expect(subjectAnswer("Ann\r\nBcc: x\u202e\u200b\x1b[2J\tok")).toBe("Ann Bcc: x [2J ok");
  });

  it("is cut at 80 characters", () => {
    const long = subjectAnswer("a".repeat(500));
    expect([...long]).toHaveLength(SUBJECT_ANSWER_MAX);
    expect(long.endsWith("…")).toBe(true);
    expect(subjectAnswer("🙂".repeat(80))).toBe("🙂".repeat(80));
  });
});
