import { answerLines } from "../../src/core/answer-text.ts";
import type { Form } from "../../src/core/schema.ts";
import { WHERE_OPS } from "../../src/core/where/where.ts";
import { card, e, page } from "./layout.ts";

export interface Who {
  name: string;
  role: string;
  csrf: string;
}

const OP_WORDS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  gt: "more than",
  lt: "less than",
  gte: "at least",
  lte: "at most",
  includes: "includes",
  excludes: "excludes",
  contains: "contains",
  answered: "is answered",
  unanswered: "is not answered",
};

export function signInPage(message = ""): string {
  const note = message ? `<p class="fd-error" role="alert">${e(message)}</p>` : "";
  return page(
    { title: "Sign in" },
    `<h1>Sign in to your team's results</h1>${note}${card(
      "Email me a sign-in link",
      `<form method="post" action="/results/sign-in"><div class="fd-row"><div><label for="email">Your email</label><input id="email" name="email" type="email" autocomplete="email" required></div></div><button type="submit">Send the link</button></form>`,
    )}${card(
      "Or paste an API key",
      `<form method="post" action="/results/key"><div class="fd-row"><div><label for="key">API key</label><input id="key" name="key" type="password" autocomplete="off" required></div></div><button type="submit">Sign in with the key</button></form><p class="fd-muted">The key is used once to start a 12-hour session; it is not kept in the browser.</p>`,
    )}`,
  );
}

export const sentPage = () =>
  page(
    { title: "Check your email" },
    card(
      "Check your email",
      "<p>If that address belongs to a team member, a sign-in link is on its way. It works once, for 15 minutes.</p>",
      1,
    ),
  );

export const confirmPage = (token: string) =>
  page(
    { title: "Sign in" },
    card(
      "Sign in",
      `<form method="post" action="/results/sign-in/${e(token)}"><p>Continue to your team's form results.</p><button type="submit">Sign in</button></form>`,
      1,
    ),
  );

export interface FormItem {
  slug: string;
  title: string;
  status: string;
  stats: { responses: number };
}

export function formsPage(who: Who, forms: FormItem[]): string {
  const items = forms
    .map(
      (f) =>
        `<li><a href="/results/forms/${e(f.slug)}">${e(f.title)}</a> <span class="fd-muted">· ${e(f.status)} · ${f.stats.responses} responses</span></li>`,
    )
    .join("");
  return page(
    { title: "Forms", who },
    card("Forms", forms.length ? `<ul class="fd-list">${items}</ul>` : "<p>No forms yet.</p>", 1),
  );
}

export function formPage(
  who: Who,
  form: { slug: string; title: string; access_mode: string },
  canWrite: boolean,
): string {
  const base = `/results/forms/${e(form.slug)}`;
  const close =
    canWrite && form.access_mode !== "closed"
      ? card(
          "Close the form",
          `<form method="post" action="${base}/close"><input type="hidden" name="csrf" value="${e(who.csrf)}"><p>New responses are refused until it is opened again.</p><button type="submit">Close the form</button></form>`,
        )
      : "";
  return page(
    { title: form.title, who },
    `${card(
      form.title,
      `<p class="fd-muted">Access: ${e(form.access_mode)}</p><p class="fd-actions"><a class="fd-button" href="${base}/responses">Responses</a><a class="fd-button fd-secondary" href="${base}/report">Report</a></p>`,
      1,
    )}${exportCard(base, "")}${close}`,
  );
}

const exportCard = (base: string, query: string) =>
  card(
    "Export",
    `<p class="fd-actions">${["xlsx", "csv", "json"]
      .map(
        (f) =>
          `<a class="fd-button fd-secondary" href="${base}/export?format=${f}${query ? `&amp;${e(query)}` : ""}" download>Download ${f.toUpperCase()}</a>`,
      )
      .join("")}</p>`,
  );

export interface Filter {
  field: string;
  op: string;
  value: string;
}

export interface Row {
  id: string;
  submitted_at: string;
  payload: Record<string, unknown>;
}

const shown = (form: Form) => form.fields.filter((f) => f.type !== "statement");

function filterForm(form: Form, filter: Filter): string {
  const option = (value: string, label: string, on: boolean) =>
    `<option value="${e(value)}"${on ? " selected" : ""}>${e(label)}</option>`;
  const fields = [
    option("", "Any response", filter.field === ""),
    ...shown(form).map((f) => option(f.id, f.label ?? f.id, f.id === filter.field)),
    option("submitted_at", "Submitted at", filter.field === "submitted_at"),
  ].join("");
  const ops = WHERE_OPS.map((op) => option(op, OP_WORDS[op] ?? op, op === filter.op)).join("");
  return `<form method="get" class="fd-row fd-filter" role="search" aria-label="Filter the responses"><div><label for="f-field">Question</label><select id="f-field" name="field">${fields}</select></div><div><label for="f-op">Condition</label><select id="f-op" name="op">${ops}</select></div><div><label for="f-value">Value</label><input id="f-value" name="value" value="${e(filter.value)}"></div><div><button type="submit">Filter</button></div></form>`;
}

export function responsesPage(
  who: Who,
  head: { slug: string; title: string; definition: Form },
  view: { rows: Row[]; total: number; page: number; pages: number; filter: Filter; query: string },
  error = "",
): string {
  const form = head.definition;
  const base = `/results/forms/${e(head.slug)}`;
  const columns = shown(form).slice(0, 4);
  const cell = (r: Row, id: string) => {
    const field = form.fields.find((f) => f.id === id)!;
    const text = answerLines(field, r.payload[id]).join(", ");
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  };
  const body = view.rows
    .map(
      (r) =>
        `<tr><th scope="row"><a href="${base}/responses/${e(r.id)}">${e(r.submitted_at.slice(0, 16).replace("T", " "))}</a></th>${columns.map((c) => `<td>${e(cell(r, c.id))}</td>`).join("")}</tr>`,
    )
    .join("");
  const table = `<div class="fd-scroll" tabindex="0" role="region" aria-label="Responses table"><table><caption>${view.total} ${view.total === 1 ? "response" : "responses"}</caption><thead><tr><th scope="col">Submitted</th>${columns.map((c) => `<th scope="col">${e(c.label ?? c.id)}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table></div>`;
  const link = (p: number, label: string) =>
    `<a href="${base}/responses?${e(view.query)}${view.query ? "&amp;" : ""}page=${p}">${label}</a>`;
  const nav =
    view.pages > 1
      ? `<nav class="fd-pages" aria-label="Pages">${view.page > 1 ? link(view.page - 1, "Previous") : ""}<span>Page ${view.page} of ${view.pages}</span>${view.page < view.pages ? link(view.page + 1, "Next") : ""}</nav>`
      : "";
  const problem = error ? `<p class="fd-error" role="alert">${e(error)}</p>` : "";
  return page(
    { title: `Responses · ${head.title}`, who },
    `${card(`Responses · ${head.title}`, `<p><a href="${base}">Back to the form</a></p>${filterForm(form, view.filter)}${problem}${table}${nav}`, 1)}${exportCard(base, view.query)}`,
  );
}

export function responsePage(
  who: Who,
  head: { slug: string; title: string; definition: Form },
  r: Row,
): string {
  const rows = shown(head.definition)
    .map((f) => {
      const lines = answerLines(f, r.payload[f.id]);
      return `<tr><th scope="row">${e(f.label ?? f.id)}</th><td>${lines.length ? lines.map(e).join("<br>") : "—"}</td></tr>`;
    })
    .join("");
  return page(
    { title: `Response · ${head.title}`, who },
    card(
      `Response · ${head.title}`,
      `<p class="fd-muted">Submitted ${e(r.submitted_at.slice(0, 19).replace("T", " "))} UTC · ${e(r.id)}</p><p><a href="/results/forms/${e(head.slug)}/responses">Back to the responses</a></p><div class="fd-scroll" tabindex="0" role="region" aria-label="Answers"><table><caption>Answers</caption><tbody>${rows}</tbody></table></div>`,
      1,
    ),
  );
}

export const errorPage = (who: Who, message: string) =>
  page(
    { title: "Not available", who },
    card(
      "Not available",
      `<p role="alert">${e(message)}</p><p><a href="/results">Back to the forms</a></p>`,
      1,
    ),
  );
