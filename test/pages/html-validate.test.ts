// html-validate (standard preset) over every example page the build makes and over the HTML
// report: 0 errors (issue 47 item 6: a <div> inside <label class="fd-option"> on every page with
// image options; a label allows phrasing content only).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { HtmlValidate } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

/** Every problem of a document, one line each (empty: valid). */
async function problems(html: string, name: string): Promise<string[]> {
  const report = await validator.validateString(html, name);
  return report.results.flatMap((r) =>
    r.messages.map((m) => `${name}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  );
}

const pagesOf = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pagesOf(path);
    return name.endsWith(".html") ? [path] : [];
  });

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe("html-validate (standard)", () => {
  it("finds no error on any example page the build made", async () => {
    const dist = join(ROOT, "dist/client");
    const pages = pagesOf(join(dist, "@me"));
    // the examples with image options (product-survey, in three languages) among them
    expect(pages.map((p) => relative(dist, p))).toEqual(
      expect.arrayContaining([
        "@me/contact/index.html",
        "@me/product-survey/index.html",
        "@me/product-survey/de/index.html",
        "@me/quiz/index.html",
      ]),
    );
    const found: string[] = [];
    for (const page of pages)
      found.push(...(await problems(readFileSync(page, "utf8"), relative(dist, page))));
    expect(found).toEqual([]);
  });

  it("finds no error on the HTML report of a form with every kind of chart", async () => {
    const api = client(s.url, s.apiKey);
    const markdown = readFileSync(join(ROOT, "test/fixtures/examples/product-survey.md"), "utf8")
      // its translation files are not sent here
      .replace(/^languages: .*\n/m, "");
    expect((await api("POST", "/api/forms", { body: { markdown } })).status).toBe(201);
    const answers = [
      { recommend: 3, disappointed: "Faster exports", features: ["Forms", "Quizzes"] },
      { recommend: 9, satisfaction: 4, ease: 6, features: ["Surveys"], role: "Product" },
      {
        recommend: 10,
        aspects: { speed: "Good", design: "Excellent", docs: "Fair" },
        priorities: ["Price", "Support", "Reliability", "Integrations"],
      },
    ];
    for (const fields of answers) {
      const res = await api("POST", "/api/forms/product-survey/submit", {
        body: { fields, test: false },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const report = await api("GET", "/api/forms/product-survey/report?format=html&period=all");
    expect(report.status).toBe(200);
    expect(report.body).toContain('class="heat"');
    expect(await problems(report.body, "report.html")).toEqual([]);
  });
});
