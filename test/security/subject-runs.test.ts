// Sixth review (2026-11-28, docs/security-review.md): an answer piped into an email's subject
// (`subject: "New: {field:note}"`) had its links dropped by one pattern over the whole answer;
// from each `a` of `a+a+a+…` its scheme alternative scans to the end (`[a-z][a-z0-9+.-]*:`), so
// one anonymous answer of 300,000 such characters held the event loop 32 s while the owner's
// email was composed. Only the first 2,000 characters are read now (80 are shown). Before, the
// first case here outlived the suite's timeout.
import { describe, expect, it } from "vitest";
import { subjectAnswer } from "../../functions/mail/subject-answer.ts";

describe("a long answer piped into a subject", () => {
  it.each([
    ["scheme runs", "a+".repeat(250_000)],
    ["host runs", "a.".repeat(250_000)],
    ["dashes", "a-".repeat(250_000)],
  ])("reads %s in bounded time", (_, text) => {
    expect(subjectAnswer(text)).toHaveLength(80);
  });

  it("still drops a link at the start and one cut at the edge of what is read", () => {
    expect(subjectAnswer(`https://evil.example/${"x".repeat(3000)} hello`)).toBe("");
    // what is cut is never shown, and a fragment at the cut is text, not a link
    expect(subjectAnswer(`hi ${"https://e.example/ ".repeat(200)}there`)).toBe("hi ht");
    // a pair of surrogates cut in two is not left half
    expect(subjectAnswer(`${" ".repeat(1999)}😀`)).toBe("\ufffd");
  });
});
