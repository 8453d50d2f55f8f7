// A response's record carries `ending` and `variables` beside `payload` (SPEC §24), and so does
// every webhook body of it (SPEC §11), whichever path delivers it: handed over by the submit, a
// retry claimed from the table, or the scheduled drain (serverless). The Slack and sheet presets
// show them readably. A form without logic gets a body without those keys, as its record has.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainWebhooks } from "../../functions/webhooks/drain.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver, startReceiver } from "./receiver.ts";

const file = new URL("../fixtures/examples/quote.md", import.meta.url);
const parsed = parseFormFile(readFileSync(file, "utf8"), "quote.md");
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _tests, ...quote } = parsed.form;

type Api = ReturnType<typeof client>;

/** Two paths of the quote form: a yearly partner quote, and one big enough for sales. */
const answers = [
  {
    fields: {
      plan: "Business",
      seats: 20,
      billing: "Yearly",
      company: "Acme",
      email: "a@example.com",
    },
    hidden: { ref: "partner" },
  },
  {
    fields: {
      plan: "Business",
      seats: 100,
      billing: "Monthly",
      company: "Big",
      email: "b@example.com",
    },
  },
];

async function submitted(api: Api, body: object) {
  const res = await api("POST", "/api/forms/quote/submit", { key: null, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const record = await api("GET", `/api/forms/quote/responses/${res.body.response_id}`);
  expect(record.status).toBe(200);
  return record.body as { id: string; ending: string; variables: Record<string, unknown> };
}

/** The body's response has the record's ending and variables, in the record's key order. */
function sameAsRecord(
  response: Record<string, unknown>,
  record: { id: string; ending: string; variables: Record<string, unknown> },
) {
  expect(response.id).toBe(record.id);
  expect(response.ending).toBe(record.ending);
  expect(response.variables).toEqual(record.variables);
  expect(JSON.stringify(response.variables)).toBe(JSON.stringify(record.variables));
}

describe.each(DB_KINDS)("the logic in webhook bodies (%s)", (kind) => {
  const receivers: Receiver[] = [];
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const r of receivers) await r.close();
  });

  describe("from the Node server's sender", () => {
    let api: Api;
    let slack: Receiver;
    let sheet: Receiver;
    beforeAll(async () => {
      [slack, sheet] = await Promise.all([startReceiver(), startReceiver()]);
      receivers.push(slack, sheet);
      const s = await startTestServer({
        db: kind,
        webhookSender: true,
        env: {
          FORMDOWN_WEBHOOK_PRIVATE: "1",
          FORMDOWN_WEBHOOK_TIMEOUT_MS: "400",
          FORMDOWN_WEBHOOK_BACKOFF: "0.2,0.2,0.2",
          ME_QUOTE_SLACK_URL: slack.url,
          ME_QUOTE_SHEET_URL: sheet.url,
        },
      });
      servers.push(s);
      api = client(s.url, s.apiKey);
      const webhooks = [{ slack: "ME_QUOTE_SLACK_URL" }, { sheet: "ME_QUOTE_SHEET_URL" }];
      const deployed = await api("PUT", "/api/forms/quote", {
        body: { ...quote, humanness: false, notifications: { ...quote.notifications, webhooks } },
      });
      expect(deployed.status, JSON.stringify(deployed.body)).toBe(201);
    }, 120_000);

    it("hands the ending and variables over, and a retry from the table sends the same bytes", async () => {
      const { receiver } = await hookReceiver(api, "quote", receivers);
      // each response's first attempt fails: its retry is claimed from the table
      const seen = new Set<string>();
      receiver.behave((r) => {
        if (seen.has(r.id)) return 204;
        seen.add(r.id);
        return 500;
      });
      const records = [];
      for (const body of answers) records.push(await submitted(api, body));
      expect(records.map((r) => [r.ending, r.variables])).toEqual([
        ["quote", { per_seat: 11, total: 198 }],
        ["sales", { per_seat: 12, total: 1200 }],
      ]);
      const got = await receiver.until((r) => r.length === 4);
      for (const record of records) {
        const [first, retry] = got.filter((r) => r.json.data.response.id === record.id);
        expect(first!.verified && retry!.verified).toBe(true);
        expect(retry!.id).toBe(first!.id);
        expect(retry!.body).toBe(first!.body);
        sameAsRecord(first!.json.data.response, record);
      }
    });

    it("shows the ending and the variables under their labels in the Slack message and the sheet row", async () => {
      // one message per response, told apart by the company (the order they came in may vary)
      const messages = (await slack.until((r) => r.length >= 2)).map(
        (r) => (JSON.parse(r.body) as { blocks: { text?: { text: string } }[] }).blocks,
      );
      const texts = (company: string) =>
        messages
          .map((blocks) => blocks.map((b) => b.text?.text))
          .find((t) => t.includes(`*Company*\n${company}`))!;
      expect(texts("Acme")).toContain(
        "*Ending:* Your quote: 198 € a month (quote)\n*Price per seat (€):* 11\n*Monthly total (€):* 198",
      );
      // the logic after the answers, before the context line
      expect(texts("Acme").indexOf("*Company*\nAcme")).toBeLessThan(
        texts("Acme").findIndex((t) => t?.startsWith("*Ending:*")),
      );
      expect(texts("Big")).toContain(
        "*Ending:* A specialist will call you (sales)\n*Price per seat (€):* 12\n*Monthly total (€):* 1200",
      );

      const rows = (await sheet.until((r) => r.length >= 2)).map(
        (r) => JSON.parse(r.body) as { headers: string[]; row: string[] },
      );
      const { headers, row: cells } = rows.find((r) => r.row.includes("Acme"))!;
      expect(headers.slice(-3)).toEqual(["Ending", "Price per seat (€)", "Monthly total (€)"]);
      expect(cells.slice(-3)).toEqual(["quote", "11", "198"]);
      expect(headers).toHaveLength(cells.length);
    });
  });

  describe("from the scheduled drain", () => {
    let s: TestServer;
    let api: Api;
    beforeAll(async () => {
      // no background sender: deliveries wait in the table for the drain (functions/deno/drain.ts)
      s = await startTestServer({ db: kind, env: { FORMDOWN_WEBHOOK_PRIVATE: "1" } });
      servers.push(s);
      api = client(s.url, s.apiKey);
      const created = await api("POST", "/api/forms", { body: { ...quote, humanness: false } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const plain = await api("POST", "/api/forms", {
        body: {
          title: "Plain",
          slug: "plain",
          humanness: false,
          fields: [{ id: "n", type: "text" }],
        },
      });
      expect(plain.status).toBe(201);
    }, 120_000);

    it("sends the record's ending and variables, and no such keys for a form without logic", async () => {
      const { receiver } = await hookReceiver(api, "quote", receivers);
      const plain = await hookReceiver(api, "plain", receivers);
      const record = await submitted(api, answers[0]!);
      const sent = await api("POST", "/api/forms/plain/submit", {
        key: null,
        body: { fields: { n: "x" } },
      });
      expect(sent.status).toBe(201);
      expect(await drainWebhooks(s.ctx)).toEqual({ delivered: 2, retrying: 0, failed: 0 });
      const [got] = receiver.received;
      expect(got!.verified).toBe(true);
      sameAsRecord(got!.json.data.response, record);
      const stored = await api("GET", `/api/forms/plain/responses/${sent.body.response_id}`);
      expect(Object.keys(stored.body)).not.toContain("ending");
      expect(Object.keys(stored.body)).not.toContain("variables");
      // the body of a form without logic, key for key as before
      expect(Object.keys(plain.receiver.received[0]!.json.data.response)).toEqual([
        "id",
        "submitted_at",
        "payload",
        "commit_sha",
      ]);
    });
  });
});
