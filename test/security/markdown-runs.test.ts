// Review of 2026-11-28 (docs/security-review.md): the page's small Markdown renderer found links
// with `\[([^\]]+)\]\(`, which from each `[` scans to the end of the text when no `]` follows: a
// form body of 100,000 `[` (a valid 100 KB file, any account's) held the event loop 8 s on every
// anonymous view of its page, a 256 KB one most of a minute. The meta description (`<[^>]*>`) and
// the email's text part did the same. A link's text and address now hold no `[` (a tag no `<`):
// each try stops where the next could start. Before, each case here outlived the suite's timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownText } from "../../src/core/markdown-text.ts";
import { describe as metaDescription } from "../../src/lib/description.ts";
import { renderMarkdown } from "../../src/lib/markdown.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const runs = {
  brackets: "[".repeat(250_000),
  "unclosed links": "[a](https://x".repeat(20_000),
  "link starts": "[a](".repeat(60_000),
  images: "![".repeat(120_000),
  "angle brackets": "<".repeat(250_000),
};

describe("runs of Markdown syntax in a form's texts", () => {
  it.each(Object.entries(runs))("renders %s in one linear pass", (_, text) => {
    // each would take minutes with the patterns that scanned to the end from every start
    expect(renderMarkdown(text)).toMatch(/^<p>/);
    expect(markdownText(text).length).toBeGreaterThan(0);
    expect(metaDescription("Title", text).length).toBeLessThanOrEqual(160);
  });

  it("still renders links, and keeps text with brackets as text", () => {
    expect(renderMarkdown("[docs](https://example.com/a) and [x](mailto:a@b.co)")).toBe(
      '<p><a href="https://example.com/a" rel="noopener nofollow" target="_blank">docs</a> and <a href="mailto:a@b.co" rel="noopener nofollow" target="_blank">x</a></p>',
    );
    expect(renderMarkdown("[[docs](https://example.com)")).toBe(
      '<p>[<a href="https://example.com" rel="noopener nofollow" target="_blank">docs</a></p>',
    );
    expect(markdownText("see [docs](https://example.com)")).toBe("see docs (https://example.com)");
    expect(metaDescription("T", "A [link](https://x.y), <b>bold</b> ![i](i.png)")).toBe(
      "A link, bold",
    );
  });

  describe("on the form's page", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s?.close());

    it("serves a page whose body is 200,000 brackets", async () => {
      const markdown = `---\ntitle: Brackets\nslug: brackets\nhumanness: false\nfields:\n  - id: a\n    type: text\n---\n${"[".repeat(200_000)}\n`;
      const made = await client(s.url, s.apiKey)("POST", "/api/forms", { body: { markdown } });
      expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
      const page = await fetch(`${s.url}/@me/brackets`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<div class="fd-body"><p>${"[".repeat(1000)}`);
    });
  });
});
