import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewLink } from "../../functions/links/view-links.ts";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Feedback <b>",
  slug: "feedback",
  humanness: false,
  notifications: { email: ["owner@example.com"] },
  fields: [
    { id: "name", type: "text", label: "Name" },
    {
      id: "grid",
      type: "matrix",
      label: "Rate us",
      rows: [
        { id: "speed", label: "Speed" },
        { id: "docs", label: "Docs" },
      ],
      columns: ["Poor", "Good"],
    },
    { id: "order", type: "ranking", label: "Order", options: ["Price", "Support"] },
  ],
};

describe("signed view links in emails", () => {
  let s: TestServer;
  let text: string;
  let html: string;
  const get = (url: string) => fetch(url.replace(s.ctx.config.baseUrl, s.url));
  beforeAll(async () => {
    s = await startTestServer();
    const api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    const fields = {
      name: "<img src=x onerror=alert(1)>",
      grid: { speed: "Good", docs: "Poor" },
      order: ["Support", "Price"],
    };
    expect(
      (await api("POST", "/api/forms/feedback/submit", { key: null, body: { fields } })).status,
    ).toBe(201);
    await drainOutbox(s.ctx);
    const [row] = await s.ctx.db.query<{ text_body: string; html_body: string }>(
      "select text_body, html_body from outbox where kind = 'response'",
    );
    text = row!.text_body;
    html = row!.html_body;
  });
  afterAll(() => s?.close());

  const linkAfter = (label: string) => new RegExp(`${label}: (\\S+)`).exec(text)![1]!;

  it("writes an HTML part beside the text, with matrix and ranking answers as rows", () => {
    expect(text).toContain("Rate us\n  Speed: Good\n  Docs: Poor");
    expect(text).toContain("Order\n  1. Support\n  2. Price");
    const doc = parseHTML(html).document;
    expect(doc.querySelectorAll("img, script").length).toBe(0);
    expect(doc.querySelector("h1")!.textContent).toBe("New response to Feedback <b>");
    const hrefs = [...doc.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual([linkAfter("View it"), linkAfter("Report")]);
    expect(hrefs.every((h) => h!.startsWith(`${s.ctx.config.baseUrl}/view/`))).toBe(true);
  });

  it("opens the response read-only from the email's link, without a key", async () => {
    const res = await get(linkAfter("View it"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const doc = parseHTML(await res.text()).document;
    expect(doc.querySelectorAll("img, script").length).toBe(0);
    const cells = [...doc.querySelectorAll("td")].map((td) => td.innerHTML);
    expect(cells).toEqual([
      "&lt;img src=x onerror=alert(1)&gt;",
      "Speed: Good<br>Docs: Poor",
      "1. Support<br>2. Price",
    ]);
  });

  it("opens the HTML report from the email's link", async () => {
    const res = await get(linkAfter("Report"));
    expect(res.status).toBe(200);
    const doc = parseHTML(await res.text()).document;
    expect(doc.querySelector("h1")!.textContent).toBe("Feedback <b> — responses report");
  });

  it("answers 403 to a tampered or expired link", async () => {
    const good = new URL(linkAfter("View it"));
    const sig = good.searchParams.get("sig")!;
    const tampered = [
      good.href.replace(sig, `${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`),
      good.href.replace(/exp=\d+/, (m) => `${m}0`),
      good.href.replace(/\/view\/responses\/[^?]+/, `/view/responses/${crypto.randomUUID()}`),
      good.href.replace(/&sig=.*/, ""),
      linkAfter("Report").replace("period=30d", "period=all"),
    ];
    for (const url of tampered) {
      const res = await get(url);
      expect(res.status, url).toBe(403);
      expect((await res.json()).code).toBe("forbidden");
    }
    const id = good.pathname.split("/").pop()!;
    const old = await viewLink(s.ctx, { kind: "response", id }, Date.now() - 31 * 86_400_000);
    const expired = await get(old);
    expect(expired.status).toBe(403);
    const fresh = await viewLink(s.ctx, { kind: "response", id }, Date.now() - 29 * 86_400_000);
    expect((await get(fresh)).status).toBe(200);
  });
});
