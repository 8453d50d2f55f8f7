// The strings and the paths of test/security/long-runs.test.ts: long runs of each punctuation and
// whitespace character (and a few alternations) as answers and as author text, and every pure
// function that transforms them on the way to a respondent, an owner or a receiver.
import { printable, table } from "../../cli/lib/output.ts";
import { xlsxCell } from "../../functions/exports/xlsx.ts";
import { xmlText } from "../../functions/exports/xlsx-sheet.ts";
import { fillSubject, responseEmail } from "../../functions/mail/compose-email.ts";
import { respondentEmail } from "../../functions/mail/respondent-email.ts";
import { plainMailbox } from "../../functions/mail/respondent-recipients.ts";
import { responsePage, responsesPage } from "../../functions/results/pages.ts";
import type { EventSource } from "../../functions/webhooks/payload.ts";
import { eventBody } from "../../functions/webhooks/payload.ts";
import { answerLines } from "../../src/core/answer-text.ts";
import { cellText, csvLine } from "../../src/core/csv.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { escapeCell, escapeMarkdown } from "../../src/core/markdown.ts";
import { markdownText } from "../../src/core/markdown-text.ts";
import { pipe } from "../../src/core/piping.ts";
import { quote } from "../../src/core/quote.ts";
import type { ReportData } from "../../src/core/report-data.ts";
import { renderReportHtml } from "../../src/core/report-html/document.ts";
import { renderResponseHtml } from "../../src/core/report-html/response-view.ts";
import { reportMarkdown } from "../../src/core/report-markdown.ts";
import { newTally } from "../../src/core/report-summary.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateAnswers } from "../../src/core/validate-answers.ts";
import { describe as metaDescription } from "../../src/lib/description.ts";
import { renderMarkdown } from "../../src/lib/markdown.ts";
import { pageModel, safeJson, youtubeId } from "../../src/lib/page-model.ts";

/** About 200 KB: what a textarea with a large `max_length` and a form's body both allow. */
export const RUN_LENGTH = 200_000;

const PUNCTUATION = [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];
const WHITESPACE = [" ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u2028", "\u3000"];
const ALTERNATIONS = [
  "a+",
  "a.",
  "a-",
  "a@",
  "[](",
  "](",
  "<a",
  "*_",
  "_*",
  "```",
  "\n \n",
  "\n1",
  "\n- ",
  ".@",
  "&#",
  "{{",
  "{field:",
  "http://",
  "a:",
  "\\\n",
  "1.",
  "=-",
  "\n#",
  "|\n",
  "<!--",
  "](a ",
];

/** A run of `unit` about RUN_LENGTH characters long, with a letter after it (a pattern's tail). */
export const run = (unit: string, length = RUN_LENGTH) =>
  `${unit.repeat(Math.ceil(length / unit.length))}x`;

export const UNITS: string[] = [...PUNCTUATION, ...WHITESPACE, ...ALTERNATIONS, "a", "1"];

const FORM = `---
title: Runs
slug: runs
humanness: false
hidden: [src]
notifications:
  email: [owner@example.org]
  subject: "New: {field:text} {field:area} {field:mail} {field:site}"
  respondent:
    email_field: mail
    subject: "Hi {field:text} {field:area}"
    body: "Thanks {field:area}, from {field:text}"
fields:
  - {id: text, type: text, label: Text, max_length: 900000}
  - {id: area, type: textarea, label: Area, max_length: 900000}
  - {id: mail, type: email, label: Mail}
  - {id: site, type: select, label: Site, options: [A, B]}
  - {id: rank, type: ranking, label: Rank, options: [A, B]}
  - {id: num, type: number, label: Num}
  - {id: pick, type: radio, label: Pick, options: [A, B]}
  - {id: many, type: checkbox, label: Many, options: [A, B]}
ending:
  title: "Thanks {field:text}"
  body: "You said {field:area}"
---
Hello {field:text}.
`;

const parsed = parseFormFile(FORM, "forms/@me/runs.md");
if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
export const baseForm: Form = parsed.form;

const DATE = new Date("2026-11-28T00:00:00Z");
const LINKS = { report: "https://example.org/r", response: "https://example.org/x" };

/** Every answer field given `s` (what the page's controls could send), hidden values too. */
export const answersOf = (s: string) => ({
  text: s,
  area: s,
  mail: s,
  site: s,
  num: s,
  pick: s,
  rank: [s, s],
  many: [s, s],
});

/**
 * The form with `s` wherever an author writes text, built without its YAML (timed apart): the
 * body and a question in full, the rest cut to what their schema or the definition's 512 KB allow.
 */
export function authoredForm(s: string): Form {
  const f = structuredClone(baseForm) as Form & Record<string, any>;
  const some = s.slice(0, 20_000);
  f.title = s.slice(0, 200);
  f.description = some;
  f.body = s;
  for (const [i, field] of (f.fields as any[]).entries()) {
    field.label = i === 0 ? s : some;
    field.description = some;
    if (field.options) field.options = [some, `${some}b`];
  }
  f.notifications.subject = s.slice(0, 200);
  if (f.notifications.respondent) f.notifications.respondent.body = s.slice(0, 5000);
  if (f.ending) (f.ending as any).body = some;
  return f;
}

function report(form: Form, s: string): ReportData {
  const tallies = new Map(
    form.fields.map((f) => {
      const t = newTally(3);
      t.recent = [s, s];
      t.recentWith = [{ pick: s }, {}];
      t.counts.set(s, 2).set("A", 1);
      t.ranks.set(s, 1);
      return [f.id, t];
    }),
  );
  return {
    title: form.title,
    slug: "runs",
    locale: "en",
    period: { kind: "all" } as ReportData["period"],
    generatedAt: DATE.toISOString(),
    responses: 3,
    totals: { responses: 3, views: 3, starts: 3, completion_rate: 1 },
    change: { current: 3, previous: 0, delta: 3, percent: null },
    trend: [{ date: "2026-11-28", count: 3 }],
    fields: form.fields,
    tallies,
    quiz: null,
    dropoff: [],
    medianSeconds: null,
  };
}

function delivery(form: Form, payload: Record<string, unknown>, kind: EventSource["kind"]) {
  return {
    kind,
    event: "response.created",
    webhook_id: "w",
    response_id: "r",
    created_at: DATE.toISOString(),
    form_id: "f",
    slug: "runs",
    title: form.title,
    quiz: false,
    fields: form.fields,
    logic: null,
    submitted_at: DATE.toISOString(),
    payload,
    score: null,
    commit_sha: null,
    ending: null,
    variables: { v: payload.text },
  } as unknown as EventSource;
}

const who = { name: "me", role: "owner", csrf: "c" };
const filter = { field: "", op: "eq", value: "" } as any;

/** Each path an answer `s` takes after a submit, as the server and the CLI run it. */
export const ANSWER_PATHS: Record<string, (s: string) => unknown> = {
  validate: (s) => validateAnswers(baseForm, answersOf(s), { src: s }),
  "plain mailbox": (s) => plainMailbox(s),
  "owner email": (s) => responseEmail(baseForm, answersOf(s), DATE, LINKS, { v: s }),
  "owner subject": (s) => fillSubject("{field:text}", baseForm, { text: s }, DATE),
  "respondent email": (s) => {
    try {
      return respondentEmail(
        baseForm,
        { ...answersOf(s), mail: "a@example.org" },
        ["a@example.org"],
        DATE,
      );
    } catch {
      return null;
    }
  },
  "slack preset": (s) => eventBody(delivery(baseForm, answersOf(s), "slack")),
  "sheet preset": (s) => eventBody(delivery(baseForm, answersOf(s), "sheet")),
  "webhook body": (s) => eventBody(delivery(baseForm, answersOf(s), "event")),
  "CSV export": (s) => csvLine(Object.values(answersOf(s))),
  "Markdown export": (s) => Object.values(answersOf(s)).map((v) => escapeCell(cellText(v))),
  "XLSX export": (s) => xmlText(String(xlsxCell(s, "text"))),
  "JSON export": (s) => JSON.stringify(answersOf(s)),
  "answer lines": (s) => baseForm.fields.map((f) => answerLines(f, s)),
  "Markdown report": (s) => reportMarkdown(report(baseForm, s)),
  "HTML report": (s) => renderReportHtml(report(baseForm, s)),
  "response HTML (MCP app, /results)": (s) =>
    renderResponseHtml(baseForm, {
      id: "r",
      submitted_at: DATE.toISOString(),
      payload: answersOf(s),
    }),
  "/results response": (s) =>
    responsePage(
      who,
      { slug: "runs", title: "Runs", definition: baseForm },
      { id: "r", submitted_at: DATE.toISOString(), payload: answersOf(s) },
    ),
  "/results list": (s) =>
    responsesPage(
      who,
      { slug: "runs", title: "Runs", definition: baseForm },
      {
        rows: [{ id: "r", submitted_at: DATE.toISOString(), payload: answersOf(s) }],
        total: 1,
        page: 1,
        pages: 1,
        filter: { ...filter, value: s },
        query: s,
      },
    ),
  "ending piped": (s) =>
    renderMarkdown(
      pipe(
        "You said {field:area} {hidden:src}",
        { answers: answersOf(s), hidden: { src: s } } as any,
        escapeMarkdown,
      ),
    ),
  quote: (s) => quote(s),
  "CLI printing": (s) => [printable(s), table(["a"], [[s]])],
};

/** Each path an author's text `s` takes: the file read, the page, the emails, the reports. */
export const AUTHOR_PATHS: Record<string, (s: string) => unknown> = {
  "form file body": (s) => parseFormFile(`${FORM}${s}`, "forms/@me/runs.md"),
  "form file label": (s) =>
    parseFormFile(FORM.replace("label: Text", `label: ${JSON.stringify(s)}`), "forms/@me/runs.md"),
  "page Markdown": (s) => renderMarkdown(s),
  "Markdown as text": (s) => markdownText(s),
  "meta description": (s) => metaDescription(s, s),
  "page model": (s) => safeJson(pageModel(authoredForm(s), "me")),
  "video address": (s) => youtubeId(s),
  "owner email": (s) => responseEmail(authoredForm(s), answersOf("a"), DATE, LINKS),
  "respondent email": (s) =>
    respondentEmail(
      authoredForm(s),
      { ...answersOf("a"), mail: "a@example.org" },
      ["a@example.org"],
      DATE,
    ),
  "slack preset": (s) => eventBody(delivery(authoredForm(s), answersOf("a"), "slack")),
  "sheet preset": (s) => eventBody(delivery(authoredForm(s), answersOf("a"), "sheet")),
  "Markdown report": (s) => reportMarkdown(report(authoredForm(s), "a")),
  "HTML report": (s) => renderReportHtml(report(authoredForm(s), "a")),
  "/results response": (s) =>
    responsePage(
      who,
      { slug: "runs", title: s, definition: authoredForm(s) },
      { id: "r", submitted_at: DATE.toISOString(), payload: answersOf("a") },
    ),
  "piped author text": (s) => pipe(s, { answers: answersOf("a") } as any, escapeMarkdown),
};
