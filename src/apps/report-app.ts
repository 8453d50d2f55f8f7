// The report app (SPEC §18, `ui://formdown/report`): the HTML report of the tool's form, drawn by
// the same code as every other HTML report (src/core/report-html/, src/core/charts/), and a
// drill-down: a click on a bar lists the responses that gave that answer (`list_responses`).
import { answerOf, HostBridge, type ToolResult } from "./bridge.ts";

let args: Record<string, unknown> = {};
let shown = false;

const el = (tag: string, text: string, className = "") => {
  const e = document.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  return e;
};

/** The report of the tool's result: its HTML block when it is one, else asked for. */
async function show(result: ToolResult) {
  const answer = answerOf(result);
  const slug = String(args.slug ?? answer.slug ?? "");
  if (!slug || result.isError || shown) return;
  shown = true;
  let html = result.content?.find((c) => c.text?.startsWith("<!doctype html>"))?.text;
  if (!html) {
    const report = await bridge.callTool("get_response_report", {
      slug,
      period: args.period ?? "all",
      format: "html",
      ...(typeof args.field === "string" ? { field: args.field } : {}),
      ...(args.include_test === true ? { include_test: true } : {}),
    });
    html = report.content?.find((c) => c.text?.startsWith("<!doctype html>"))?.text;
  }
  if (!html) return void document.body.replaceChildren(el("p", "No report."));
  const doc = new DOMParser().parseFromString(html, "text/html");
  document.documentElement.lang = doc.documentElement.lang;
  document.documentElement.dir = doc.documentElement.dir || "ltr";
  for (const style of doc.head.querySelectorAll("style")) document.head.append(style);
  document.body.replaceChildren(
    ...[...doc.body.childNodes].map((n) => document.importNode(n, true)),
  );
  pressable();
  const open = (target: EventTarget | null) => {
    const bar = (target as Element | null)?.closest?.("[data-key]");
    const card = bar?.closest<HTMLElement>("[data-field]");
    if (!bar || !card) return false;
    void drill(slug, card, bar.getAttribute("data-key")!);
    return true;
  };
  document.body.addEventListener("click", (event) => void open(event.target));
  // a bar is a button: Enter and Space press it, as they would a <button>
  document.body.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && open(event.target)) event.preventDefault();
  });
}

/**
 * The bars a click drills into are buttons for a keyboard and a screen reader too: focusable, in
 * reading order, named by their answer. Their chart stops being one image (a role=img
 * hides what it holds) and becomes a group named by its title.
 */
function pressable() {
  for (const bar of document.querySelectorAll<SVGElement>("[data-field] [data-key]")) {
    const key = bar.getAttribute("data-key")!;
    bar.setAttribute("role", "button");
    bar.setAttribute("tabindex", "0");
    // its answer (the table beside the chart holds the figures)
    bar.setAttribute("aria-label", `${key}: list responses`);
    const svg = bar.closest("svg");
    if (svg?.getAttribute("role") === "img") svg.setAttribute("role", "group");
  }
  const style = document.createElement("style");
  style.textContent =
    "[data-key]{cursor:pointer}[data-key]:focus{outline:none}[data-key]:focus-visible{stroke:currentColor;stroke-width:3px}";
  document.head.append(style);
}

const NUMERIC = ["number", "rating", "scale", "nps"];

/**
 * The condition a click means (SPEC §18 `where`): a checkbox's or ranking's bar names one option
 * among the answer's, a number's column a whole value, any other bar the answer itself.
 */
function clicked(field: string, type: string | undefined, key: string) {
  if (type === "checkbox" || type === "ranking") return { field, op: "includes", value: key };
  if (NUMERIC.includes(type ?? "") && /^-?\d+$/.test(key))
    return { field, op: "eq", value: Number(key) };
  return { field, op: "eq", value: key };
}

/**
 * Lists under the card the responses whose answer to its field is the clicked one, filtered in
 * the database by `list_responses {where}` (within the report's own segment, if it has one).
 */
async function drill(slug: string, card: HTMLElement, key: string) {
  const field = card.dataset.field!;
  const test = args.include_test === true ? { include_test: true } : {};
  const segment = Array.isArray(args.where) ? args.where : [];
  const where = [...segment, clicked(field, card.dataset.type, key)];
  const answer = answerOf(
    await bridge.callTool("list_responses", { slug, limit: 200, where, ...test }),
  ) as {
    responses?: { id: string; submitted_at: string; payload: Record<string, unknown> }[];
    total?: number;
  };
  const rows = answer.responses ?? [];
  const list = el("section", "", "drill");
  list.dataset.drill = `${field}=${key}`;
  list.append(el("h4", `${key}: ${answer.total ?? rows.length}`));
  const ul = document.createElement("ul");
  for (const r of rows) {
    const text = Object.entries(r.payload)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
      .join(" · ");
    const li = el("li", `${r.submitted_at.slice(0, 16).replace("T", " ")} — ${text}`);
    li.dataset.response = r.id;
    ul.append(li);
  }
  list.append(ul);
  card.querySelector(".drill")?.remove();
  card.append(list);
}

const bridge = new HostBridge({
  input: (a) => {
    args = a;
  },
  result: (r) =>
    void show(r).catch((e: unknown) => document.body.replaceChildren(el("p", String(e)))),
});
void bridge.connect("formdown-report");
