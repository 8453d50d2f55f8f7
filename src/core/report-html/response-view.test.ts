import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { formSchema } from "../schema.ts";
import { renderResponseHtml } from "./response-view.ts";

const form = (locale: string) =>
  formSchema.parse({
    title: "Fest <b>",
    slug: "fest",
    locale,
    fields: [
      { id: "kommt", type: "yes_no", label: "Kommst du?" },
      { id: "essen", type: "radio", label: "Essen", options: ["yes", "Suppe"] },
    ],
  });

const view = {
  id: "r1",
  submitted_at: "2026-11-25T10:00:00.000Z",
  payload: { kommt: "yes", essen: "yes" },
};

describe("renderResponseHtml in the form's language", () => {
  it("shows a German form's response in German, its yes/no answer as Ja, other options as written", () => {
    const doc = parseHTML(renderResponseHtml(form("de"), view)).document;
    expect(doc.documentElement.getAttribute("lang")).toBe("de");
    expect(doc.querySelector("h1")!.textContent).toBe("Antwort auf Fest <b>");
    expect(doc.querySelector(".meta")!.textContent).toMatch(/^Abgesendet 25\.11\.2026/);
    const cells = [...doc.querySelectorAll("td")].map((td) => td.textContent);
    expect(cells).toEqual(["Ja", "yes"]);
    expect(doc.querySelector("caption")!.textContent).toBe("Antworten");
  });

  it("writes a Hebrew form's response right to left", () => {
    const doc = parseHTML(renderResponseHtml(form("he"), view)).document;
    expect(doc.documentElement.getAttribute("dir")).toBe("rtl");
  });
});
