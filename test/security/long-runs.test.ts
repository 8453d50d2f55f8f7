// Seventh review (2026-11-28, docs/security-review.md): reviews three to six each found a pattern
// or loop quadratic on a long run of one character in an answer or an author's text (Markdown
// links and tags, escapeMarkdown across line breaks, an address pattern on dots, a subject's
// link pattern on `a+a+…`), each holding the event loop for seconds to minutes. This is the
// guard for the whole class: a run of every punctuation and whitespace character (and of a few
// alternations) as every answer and as every author string, through every pure function that
// writes it somewhere (long-runs-cases.ts), then one submit per field type and every export and
// report of it through the app. A linear pass over a run takes milliseconds; the class took
// seconds at a tenth of these lengths, so a step over the bound is a new member of it (measured
// twice, so a pause of this shared machine is not one).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer, testFetch } from "../helpers/server.ts";
import { ANSWER_PATHS, AUTHOR_PATHS, run, UNITS } from "./long-runs-cases.ts";

/** Longer runs in CI (as fuzz.test.ts runs more cases there); `npm test` stays quick. */
const LENGTH = Number(process.env.LONG_RUNS ?? (process.env.CI ? 200_000 : 100_000));
/**
 * A step's bound: far above any linear pass here (0.43 s at most, at 200,000 characters), far
 * below what the class cost (10 s for the subject's pattern at 100,000, more for the others): a
 * machine busy with other work several times over stays under it, a quadratic step does not.
 */
const BOUND_MS = 4000;

/** The step's time, measured again once if the first was over the bound. */
function timed(step: () => unknown): number {
  const once = () => {
    const start = performance.now();
    step();
    return performance.now() - start;
  };
  const first = once();
  return first < BOUND_MS ? first : Math.min(first, once());
}

const slow = (paths: Record<string, (s: string) => unknown>): string[] => {
  for (const unit of UNITS) {
    const s = run(unit, LENGTH);
    for (const [name, path] of Object.entries(paths)) {
      const ms = timed(() => {
        try {
          path(s);
        } catch {
          // a refusal is an answer too; only the time counts here
        }
      });
      // the first is enough: a quadratic path costs seconds on each of many runs
      if (ms >= BOUND_MS) return [`${name} on ${JSON.stringify(unit)}: ${Math.round(ms)} ms`];
    }
  }
  return [];
};

describe(`long runs (${UNITS.length} runs of ${LENGTH.toLocaleString("en")} characters)`, () => {
  it(`go through the ${Object.keys(ANSWER_PATHS).length} paths of an answer in bounded time`, () => {
    expect(slow(ANSWER_PATHS)).toEqual([]);
  }, 120_000);

  it(`go through the ${Object.keys(AUTHOR_PATHS).length} paths of an author's text in bounded time`, () => {
    expect(slow(AUTHOR_PATHS)).toEqual([]);
  }, 120_000);
});

describe("a long answer to each field type, submitted and read back through the app", () => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const markdown = `---
title: Runs
slug: runs
humanness: false
hidden: [src]
notifications:
  email: [owner@example.org]
  subject: "New: {field:text} {field:area}"
  respondent: {email_field: mail, subject: "Hi {field:text}", body: "Thanks {field:area}"}
  webhooks:
    - {slack: ME_SLACK_URL}
    - {sheet: ME_SHEET_URL}
fields:
  - {id: text, type: text, label: Text, max_length: 900000}
  - {id: area, type: textarea, label: Area, max_length: 900000}
  - {id: mail, type: email, label: Mail}
  - {id: num, type: number, label: Num}
  - {id: pick, type: radio, label: Pick, options: [A, B]}
---
Hi {field:text}
`;
  // the units that cost the class most, as answers of the field types that take them
  const answers: [string, Record<string, unknown>, Record<string, string>?][] = [
    ["text", { text: run("a+", LENGTH) }],
    ["textarea", { area: run("\n", LENGTH) }],
    ["textarea", { area: run("[](", LENGTH) }],
    ["email", { mail: `${"a.".repeat(150)}@${"a.".repeat(80)}org` }],
    ["email", { mail: run(".@", LENGTH) }],
    ["number as text", { num: run("1", LENGTH) }],
    ["choice", { pick: run("*_", LENGTH) }],
    ["hidden", {}, { src: run("<a", LENGTH) }],
  ];
  let mails = 0;
  const h = monitorEventLoopDelay({ resolution: 10 });
  /** The longest the event loop was held since the last reset, in ms. */
  const held = () => h.max / 1e6;
  beforeAll(async () => {
    s = await startTestServer({
      mailer: { send: async () => ({ id: `m${++mails}` }) },
      env: {
        ME_SLACK_URL: "https://hooks.example.org/s",
        ME_SHEET_URL: "https://sheet.example.org/s",
      },
    });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", { body: { markdown } });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
    h.enable();
  }, 60_000);
  afterAll(async () => {
    h.disable();
    await s?.close();
  });

  it.each(answers)("submits a long %s answer (stored or refused)", async (_, fields, hidden) => {
    const sent = await api("POST", "/api/forms/runs/submit", {
      key: null,
      body: { fields: { mail: "r@example.org", ...fields }, ...(hidden ? { hidden } : {}) },
    });
    expect([201, 400], JSON.stringify(sent.body).slice(0, 200)).toContain(sent.status);
  });

  it("composes the owner's and the respondents' emails", async () => {
    h.reset();
    for (let i = 0; i < 5; i++) if ((await drainOutbox(s.ctx, 50)).sent === 0) break;
    expect(held(), "the event loop was held (ms)").toBeLessThan(BOUND_MS);
    const box = await api("GET", "/api/outbox?limit=50");
    expect(box.status).toBe(200);
    // the owner's email of each stored answer, and a copy to the plain address
    expect(box.body.emails.filter((m: { status: string }) => m.status === "sent").length).toBe(
      mails,
    );
    expect(mails).toBeGreaterThan(5);
  });

  it.each([
    "/api/forms/runs/responses/export?format=csv",
    "/api/forms/runs/responses/export?format=markdown",
    "/api/forms/runs/responses/export?format=json",
    "/api/forms/runs/responses/export?format=xlsx",
    "/api/forms/runs/report?format=markdown",
    "/api/forms/runs/report",
    "/api/forms/runs/responses?limit=50",
  ])("reads %s without holding the event loop", async (path) => {
    h.reset();
    const res = await testFetch(`${s.url}${path}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(held(), "the event loop was held (ms)").toBeLessThan(BOUND_MS);
  });
});
