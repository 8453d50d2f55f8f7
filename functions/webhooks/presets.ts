// The bodies of the form file's presets (SPEC §26): `slack` posts a readable Block Kit message
// per response to an incoming webhook; `sheet` posts one row per response as JSON to an Apps
// Script web app (its doPost appends `row` under `headers`). Built like every body: from the
// delivery's rows when the attempt is made, the same on every retry.
import { FORMULA_START } from "../../src/core/csv.ts";
import { pipe } from "../../src/core/piping.ts";
import type { EventSource } from "./payload.ts";

type Field = { id: string; label?: string; type: string };

/** An answer as one line of text: lists joined, a matrix as `row: column` pairs. */
function answerText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map(answerText).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${answerText(v)}`)
      .join("; ");
  return String(value);
}

/** A labelled value: [label, text, whether the value is a number]. */
type Cell = [string, string, boolean?];
const cellOf = (label: string, value: unknown): Cell => [
  label,
  answerText(value),
  typeof value === "number",
];

/** The answered questions in form order, each as [label, text]. */
function answers(e: EventSource): Cell[] {
  const payload = e.payload ?? {};
  const fields = (e.fields ?? []).filter((f: Field) => f.type !== "statement");
  const known = new Set(fields.map((f) => f.id));
  const rows: Cell[] = fields.map((f) => cellOf(f.label ?? f.id, payload[f.id]));
  // answers under ids the form no longer has, after the rest
  for (const [id, value] of Object.entries(payload))
    if (!known.has(id) && id !== "_hidden") rows.push(cellOf(id, value));
  return rows;
}

/**
 * What the response recorded beside its answers (SPEC §24): the ending reached (its id, and its
 * title as its respondent saw it, piped), and the variables in the form's order, each as
 * [label, text]. Neither on a form without logic, as in the event's body.
 */
function recorded(e: EventSource) {
  const defs = e.logic ?? {};
  const title = e.ending ? defs.endings?.find((x) => x.id === e.ending)?.title : undefined;
  const ending = e.ending
    ? {
        id: e.ending,
        title: title
          ? pipe(title, {
              answers: e.payload ?? {},
              hidden: (e.payload?._hidden as Record<string, unknown> | undefined) ?? {},
              variables: e.variables ?? {},
              score: (e.score as { points: number; percent: number } | null) ?? null,
            })
          : "",
      }
    : null;
  const values: Cell[] = [];
  const stored = e.variables ?? {};
  const known = new Set<string>();
  for (const v of defs.variables ?? [])
    if (Object.hasOwn(stored, v.id)) {
      known.add(v.id);
      values.push(cellOf(v.label ?? v.id, stored[v.id]));
    }
  // values under ids the form no longer has, after the rest
  for (const [id, value] of Object.entries(stored))
    if (!known.has(id)) values.push(cellOf(id, value));
  return { ending, values };
}

/** Slack's mrkdwn treats these three as markup. */
const slackText = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function slackBody(e: EventSource): string | null {
  if (e.event === "webhook.test")
    return JSON.stringify({ text: `Formdown: the webhook of “${e.title}” works.` });
  if (e.event !== "response.created" || !e.submitted_at || !e.payload) return null;
  const submitted = new Date(e.submitted_at).toISOString().replace("T", " ").slice(0, 16);
  const lines = answers(e).filter(([, text]) => text !== "");
  // the ending and the variables: one section after the answers, within Slack's 50 blocks
  const { ending, values } = recorded(e);
  const logic = [
    ...(ending ? [["Ending", ending.title ? `${ending.title} (${ending.id})` : ending.id]] : []),
    ...values.filter(([, text]) => text !== ""),
  ].map(([label, text]) => `*${slackText(label!)}:* ${slackText(text!)}`);
  const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });
  return JSON.stringify({
    text: `New response to ${e.title}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: cut(`New response: ${e.title}`, 150) } },
      ...lines
        .slice(0, logic.length > 0 ? 44 : 45)
        .map(([label, text]) => section(cut(`*${slackText(label)}*\n${slackText(text)}`, 2900))),
      ...(logic.length > 0 ? [section(cut(logic.join("\n"), 2900))] : []),
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `${slackText(e.slug)} · ${submitted} UTC` }],
      },
    ],
  });
}

/**
 * A text cell as Sheets keeps it: `appendRow` reads a leading = + - @ as a formula, so a
 * respondent's `=IMPORTXML(…)` would run in the owner's sheet. As the CSV exports do
 * (src/core/csv.ts), such a text gets a leading `'`, which Sheets shows as plain text.
 */
const sheetText = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

function sheetBody(e: EventSource): string | null {
  const form = { form_id: e.form_id, slug: e.slug, title: e.title };
  if (e.event === "webhook.test") return JSON.stringify({ type: e.event, form });
  if (e.event !== "response.created" || !e.submitted_at || !e.payload) return null;
  // the ending (its id, as exports have it) and the variables, after the answers
  const { ending, values } = recorded(e);
  const rows: Cell[] = [
    ...answers(e),
    ...(ending ? [["Ending", ending.id] as Cell] : []),
    ...values,
  ];
  return JSON.stringify({
    type: e.event,
    form,
    headers: ["Response", "Submitted at", ...rows.map(([label]) => label)],
    row: [
      e.response_id,
      new Date(e.submitted_at).toISOString(),
      ...rows.map(([, text, number]) => (number ? text : sheetText(text))),
    ],
  });
}

export function presetBody(e: EventSource): string | null {
  return e.kind === "slack" ? slackBody(e) : sheetBody(e);
}
