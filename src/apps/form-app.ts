// The form app (SPEC §18, `ui://formdown/form`): the respondent's page of the tool's form, inside
// the agent's chat. The page is the one the static site serves, rendered by the same components
// on the server (the app-only tool `try_form`), and run by the same runtime (src/runtime/): the
// same show_if, validation, pages and endings. "Try it" submits travel back through `try_form`,
// stored as test answers (SPEC §16), since the app has no network of its own.
import "../runtime/form-element.ts";
import { type SubmitAnswer, sendThrough } from "../runtime/send.ts";
import { answerOf, HostBridge, type ToolResult } from "./bridge.ts";

// a host page on plain http (a local development host) is no secure context, so its frames have
// no crypto.randomUUID; the runtime's Idempotency-Key only needs to be unique
const c = crypto as { randomUUID?: () => string };
c.randomUUID ??= () =>
  [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

let args: Record<string, unknown> = {};
let shown = "";

const status = (text: string) => {
  document.body.innerHTML = `<p class="fd-app-note"></p>`;
  document.body.firstElementChild!.textContent = text;
};

async function show(result: ToolResult) {
  const answer = answerOf(result);
  const slug = String(answer.slug ?? args.slug ?? "");
  if (!slug || result.isError || slug === shown) return;
  shown = slug;
  const lang = typeof args.lang === "string" ? { lang: args.lang } : {};
  const page = answerOf(await bridge.callTool("try_form", { slug, ...lang }));
  if (typeof page.html !== "string") return status(String(page.error ?? "No page."));
  const doc = new DOMParser().parseFromString(page.html, "text/html");
  const root = document.documentElement;
  root.lang = doc.documentElement.lang;
  root.dir = doc.documentElement.dir || "ltr";
  // the brand colors, the page's one inline style; not the rules for a page whose script cannot
  // run (DOMParser runs no script, so it reads a <noscript> as markup: this app's script runs)
  for (const style of doc.head.querySelectorAll("style"))
    if (!style.closest("noscript")) document.head.append(style);
  const main = doc.querySelector("main");
  if (!main) return status("No page.");
  const note = document.createElement("p");
  note.className = "fd-app-note";
  note.textContent = String(page.note ?? "");
  document.body.replaceChildren(note, document.importNode(main, true));
  submitsInSandbox(document.querySelector("form"));
  sendThrough(async (_url, _key, body) => {
    const sent = await bridge.callTool("try_form", { slug, fields: body.fields, ...lang });
    const out = answerOf(sent) as Omit<SubmitAnswer, "status">;
    return { ...out, status: sent.isError ? 422 : 201 };
  });
}

/**
 * A host's sandbox may leave out `allow-forms`: then the browser drops a form's submission before
 * its submit event. The button's click and Enter hand the runtime that event themselves.
 */
function submitsInSandbox(form: HTMLFormElement | null) {
  if (!form) return;
  const submit = (event: Event) => {
    event.preventDefault();
    form.dispatchEvent(new SubmitEvent("submit", { cancelable: true }));
  };
  form.addEventListener("click", (e) => {
    if ((e.target as Element).closest("button[type=submit]")) submit(e);
  });
  form.addEventListener("keydown", (e) => {
    const t = e.target as HTMLElement;
    if (e.key === "Enter" && t.tagName === "INPUT") submit(e);
  });
}

const bridge = new HostBridge({
  input: (a) => {
    args = a;
  },
  result: (r) => void show(r).catch((e: unknown) => status(String(e))),
});
void bridge.connect("formdown-form");
