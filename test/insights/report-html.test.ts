import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { launch } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { answeredCount, countOf, LEFT, RESPONSES, seedSurvey, survey } from "./survey-seed.ts";

/** The numbers table folded under a field's chart (the last in its card), as rows of cell texts. */
function tableOf(doc: Document, field: string, which = -1): string[][] {
  const tables = [...doc.querySelectorAll(`section[data-field="${field}"] table`)];
  return [...tables.at(which)!.querySelectorAll("tbody tr")].map((tr) =>
    [...tr.children].map((c) => c.textContent!.trim()),
  );
}

const share = (n: number, of: number) => `${Math.round((n / of) * 100)}%`;

describe("the HTML report", () => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let html: string;
  let doc: Document;
  let res: Response;
  beforeAll(async () => {
    s = await startTestServer();
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: survey() })).status).toBe(201);
    await seedSurvey(api);
    res = await fetch(`${s.url}/api/forms/product-survey/report?period=7d&format=html`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    html = await res.text();
    doc = parseHTML(html).document as unknown as Document;
  }, 60_000);
  afterAll(() => s?.close());

  it("is one HTML document with no script and nothing fetched from outside", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(doc.querySelectorAll("script, link, iframe, img, object, embed").length).toBe(0);
    for (const el of doc.querySelectorAll("[src], [href], [srcset], [action]"))
      expect(el.getAttribute("href") ?? "").toMatch(/^(#|$)/);
    expect(/url\(|@import/.test(html)).toBe(false);
    const handlers = [...doc.querySelectorAll("*")].flatMap((el) =>
      [...el.attributes].map((a) => a.name).filter((n) => n.startsWith("on")),
    );
    expect(handlers).toEqual([]);
  });

  it("refuses a format it does not know, and another account's form", async () => {
    const bad = await api("GET", "/api/forms/product-survey/report?format=pdf");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_param");
    const other = await api("GET", "/api/forms/product-survey/report?format=html", {
      key: await s.otherKey(),
    });
    expect(other.status).toBe(403);
  });

  it("weighs at most 60 KB for the example survey", () => {
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(60 * 1024);
  });

  it("draws every chart with a title, and its numbers match the submitted answers", () => {
    for (const svg of doc.querySelectorAll("svg")) {
      expect(svg.getAttribute("role")).toBe("img");
      const title = svg.querySelector("title")!;
      expect(title.textContent!.length).toBeGreaterThan(5);
      expect(svg.getAttribute("aria-labelledby")).toBe(title.getAttribute("id"));
    }
    const role = tableOf(doc, "role");
    expect(role.map((r) => r[0])).toEqual([
      "Engineering",
      "Product",
      "Design",
      "Research",
      "Other",
    ]);
    for (const [option, count, pct] of role) {
      expect(Number(count)).toBe(countOf("role", option));
      expect(pct).toBe(share(countOf("role", option), answeredCount("role")));
    }
    // the bar chart says the same as its table
    const bars = [...doc.querySelectorAll('section[data-field="features"] svg text.v')].map(
      (t) => t.textContent,
    );
    expect(bars).toEqual(
      ["Forms", "Surveys", "Quizzes"].map(
        (o) => `${countOf("features", o)} · ${share(countOf("features", o), RESPONSES)}`,
      ),
    );
    // histogram of a rating: one bar per star, 1..5
    const stars = tableOf(doc, "satisfaction");
    expect(stars.map((r) => r[0])).toEqual(["1", "2", "3", "4", "5"]);
    for (const [v, count] of stars) expect(Number(count)).toBe(countOf("satisfaction", Number(v)));
    // NPS: the score from the split
    const nps = Array.from({ length: 11 }, (_, v) => countOf("recommend", v));
    const promoters = nps[9]! + nps[10]!;
    const detractors = nps.slice(0, 7).reduce((a, b) => a + b, 0);
    const score = Math.round(((promoters - detractors) / RESPONSES) * 100);
    expect(doc.querySelector("[data-nps]")!.getAttribute("data-nps")).toBe(String(score));
    expect(tableOf(doc, "recommend").map((r) => Number(r[1]))).toEqual(nps);
    expect(tableOf(doc, "recommend", 0).map((r) => Number(r[1]))).toEqual([
      detractors,
      RESPONSES - promoters - detractors,
      promoters,
    ]);
    // matrix heat table: each cell the count of that row's column
    const heat = doc.querySelector('section[data-field="aspects"] table')!;
    const speed = [...heat.querySelectorAll("tbody tr")[0]!.querySelectorAll("td")].map((td) =>
      Number(td.textContent),
    );
    expect(speed).toEqual(
      ["Poor", "Fair", "Good", "Excellent"].map(
        (c) =>
          Array.from({ length: RESPONSES }, (_, i) => i).filter(
            (i) => ["Poor", "Fair", "Good", "Excellent"][i % 4] === c,
          ).length,
      ),
    );
    // ranking: average position, smallest first
    const ranks = tableOf(doc, "priorities");
    const avg = (o: string) => {
      let sum = 0;
      for (let i = 0; i < RESPONSES; i++) {
        const order = [
          ...["Price", "Reliability", "Integrations", "Support"].slice(i % 4),
          ...["Price", "Reliability", "Integrations", "Support"].slice(0, i % 4),
        ];
        sum += order.indexOf(o) + 1;
      }
      return Math.round((sum / RESPONSES) * 100) / 100;
    };
    for (const [o, a] of ranks) expect(Number(a)).toBe(avg(o!));
  });

  it("shows the trend and the drop-off from the same numbers as the JSON stats", async () => {
    const stats = (await api("GET", "/api/forms/product-survey/stats")).body;
    const days = [...doc.querySelectorAll("#trend-h ~ details tbody tr")].map((tr) =>
      Number(tr.querySelector("td")!.textContent),
    );
    expect(days).toHaveLength(30);
    expect(days.slice(-7)).toEqual(stats.sparkline_7d.map((d: { count: number }) => d.count));
    // an all-time report counts its trend in the pass over its answers: the same 30 days
    const all = await fetch(`${s.url}/api/forms/product-survey/report?period=all&format=html`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    const allDoc = parseHTML(await all.text()).document as unknown as Document;
    const allDays = [...allDoc.querySelectorAll("#trend-h ~ details tbody tr")].map((tr) =>
      Number(tr.querySelector("td")!.textContent),
    );
    expect(allDays).toEqual(days);
    expect(days.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const drop = [...doc.querySelectorAll("#drop-h + section tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].slice(0, 2).map((td) => Number(td.textContent)),
    );
    expect(drop).toEqual(
      stats.dropoff.map((d: { reached: number; answered: number }) => [d.reached, d.answered]),
    );
    expect(stats.dropoff[0]).toEqual({
      field: "recommend",
      reached: RESPONSES + LEFT.length,
      answered: RESPONSES,
    });
    expect(stats.median_seconds).toBe(40 + 5 * 17.5);
    expect(doc.querySelector("[data-median-seconds]")!.textContent).toBe("2 min 8 s");
  });

  it("shows text answers as text", () => {
    const quotes = [...doc.querySelectorAll('section[data-field="disappointed"] blockquote')];
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes[0]!.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(doc.querySelectorAll("blockquote img").length).toBe(0);
  });

  it("reads on a phone and a desktop, with no axe violations", async () => {
    const browser = await launch();
    try {
      const dir = join(tmpdir(), "formdown-report-shots");
      await mkdir(dir, { recursive: true });
      for (const [name, width] of [
        ["phone", 390],
        ["desktop", 1280],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const requests: string[] = [];
        page.on("request", (r) => requests.push(r.url()));
        await page.route("**/*", (route) => route.abort());
        await page.setContent(html);
        await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
        expect(requests.filter((u) => !u.startsWith("data:") && u !== "about:blank")).toEqual([]);
        // nothing wider than the screen
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(overflow).toBeLessThanOrEqual(width);
        const axe = await new AxeBuilder({ page }).analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
        await context.close();
      }
      await writeFile(join(dir, "report.html"), html);
      // served for real, under its Content-Security-Policy: the inline styles still apply
      const context = await browser.newContext({
        extraHTTPHeaders: { authorization: `Bearer ${s.apiKey}` },
      });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
      await page.goto(`${s.url}/api/forms/product-survey/report?period=7d&format=html`);
      const styles = await page.evaluate(() => ({
        bar: getComputedStyle(document.querySelector(".bar")!).fill,
        heat: getComputedStyle(document.querySelector("td.heat")!).backgroundColor,
      }));
      expect(styles.bar).toBe("rgb(29, 78, 216)");
      // the shade as the opaque colour it blends to (a checker reads no translucent background)
      expect(styles.heat).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
