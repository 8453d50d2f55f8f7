import { describe, expect, it } from "vitest";
import { formSchema } from "../../src/core/schema.ts";
import { fillSubject, milestoneEmail, responseEmail } from "./compose-email.ts";
import { backoffSeconds } from "./sender.ts";

const form = formSchema.parse({
  title: "Beta <signup>",
  slug: "beta",
  fields: [
    { id: "name", type: "text", label: "Your name" },
    { id: "tools", type: "checkbox", options: ["a", "b"] },
    { id: "note", type: "textarea" },
  ],
  notifications: { email: ["o@example.com"], strategy: { target: 100 } },
});
const at = new Date("2026-11-20T10:00:00Z");

describe("email composition (SPEC §8)", () => {
  it("fills {form_title}, {field:<id>} and {date}, and strips line breaks", () => {
    expect(
      fillSubject("{form_title}: {field:name} on {date}", form, { name: "Ann\r\nBcc: x@y" }, at),
    ).toBe("Beta <signup>: Ann Bcc: x@y on 2026-11-20");
    expect(fillSubject("{field:missing}!", form, {}, at)).toBe("!");
  });

  it("defaults the subject and lists the answers escaped in HTML, with the link", () => {
    const email = responseEmail(form, { name: "<script>x</script>", tools: ["a", "b"] }, at, {
      response: "https://h/r/1",
      report: "https://h/report",
    });
    expect(email.subject).toBe("New response to Beta <signup>");
    expect(email.text).toContain("Your name\n  <script>x</script>");
    expect(email.text).toContain("tools\n  a, b");
    expect(email.text).toContain("note\n  —");
    expect(email.text).toContain("https://h/r/1");
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("&#60;script&#62;x&#60;/script&#62;");
    expect(email.html).toContain("Beta &#60;signup&#62;");
    expect(email.html).toContain('href="https://h/r/1"');
  });

  it("keeps a multi-line answer's lines: indented in text, broken in HTML, escaped", () => {
    const email = responseEmail(form, { note: "First <b>line</b>\r\nSecond line" }, at, {
      report: "https://h/report",
    });
    expect(email.text).toContain("note\n  First <b>line</b>\n  Second line");
    expect(email.html).toContain("First &#60;b&#62;line&#60;/b&#62;<br>Second line");
  });

  it("writes matrix and ranking answers as rows, never JSON, in text and HTML", () => {
    const survey = formSchema.parse({
      title: "S",
      slug: "s",
      fields: [
        {
          id: "grid",
          type: "matrix",
          label: "Grid",
          rows: [
            { id: "speed", label: "Speed" },
            { id: "docs", label: "Docs" },
          ],
          columns: ["Poor", "Good"],
        },
        { id: "order", type: "ranking", label: "Order", options: ["x", "y"] },
      ],
    });
    const email = responseEmail(
      survey,
      { grid: { speed: "Good", docs: "Poor" }, order: ["y", "x"] },
      at,
      {
        report: "https://h/report",
      },
    );
    expect(email.text).toContain("Grid\n  Speed: Good\n  Docs: Poor");
    expect(email.text).toContain("Order\n  1. y\n  2. x");
    expect(email.text).not.toContain("{");
    expect(email.html).toContain("Speed: Good<br>Docs: Poor");
    expect(email.html).not.toContain("&#123;");
  });

  it("names the milestone and the target", () => {
    const email = milestoneEmail(form, 50, { report: "https://h/r" });
    expect(email.subject).toBe("Beta <signup> reached 50 responses");
    expect(email.text).toContain("50 responses of your target of 100");
    expect(milestoneEmail(form, 1, { report: "https://h/r" }).subject).toBe(
      "Beta <signup> reached 1 response",
    );
  });

  it("backs off exponentially from 5 s, capped at an hour", () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([5, 10, 20, 40]);
    expect(backoffSeconds(30)).toBe(3600);
  });
});
