// The respondent runtime: one custom element over server-rendered HTML. It imports the same
// show_if and answer validation as the server, so the page and the API can never disagree.
import type { Field } from "../core/field-schema.ts";
import { visibleFields } from "../core/show-if.ts";
import { validateAnswers } from "../core/validate-answers.ts";
import { AntiBot } from "./anti-bot.ts";
import { collect } from "./collect.ts";
import { setupRanking } from "./ranking.ts";
import { type Score, scoreText, send, submitBody } from "./send.ts";
import { shuffleOptions } from "./shuffle.ts";
import { showErrors, uploadFile } from "./ui.ts";

interface Definition {
  slug: string;
  type: string;
  fields: Field[];
  hidden: string[];
  humanness: boolean;
  randomize: boolean;
  showResults: boolean;
  apiBase: string;
  access: string;
  turnstileSiteKey: string | null;
  turnstileScript: string;
  pageCount: number;
}

class FormdownForm extends HTMLElement {
  #def!: Definition;
  #form: HTMLFormElement | null = null;
  #page = 0;
  #uploads = new Map<string, string>();
  #sending = new Set<Promise<void>>();
  #antiBot: AntiBot | null = null;
  #idempotencyKey = crypto.randomUUID();
  #started = false;

  connectedCallback() {
    this.#def = JSON.parse(this.querySelector("#fd-def")!.textContent!) as Definition;
    this.#form = this.querySelector("form");
    this.#beacon("view");
    // the 3D viewer is a separate chunk, fetched only by pages that show a model
    if (this.querySelector("model-viewer")) void import("@google/model-viewer");
    if (!this.#form) return;
    if (this.#def.randomize) shuffleOptions(this);
    for (const list of this.querySelectorAll<HTMLElement>("[data-ranking]"))
      setupRanking(list, () => this.#changed());
    this.#form.addEventListener("input", () => this.#changed());
    this.#form.addEventListener("change", (e) => this.#onChange(e));
    this.#form.addEventListener("submit", (e) => {
      e.preventDefault();
      // Enter before the last page means Next, as respondents of paged forms expect
      if (!(this.querySelector("[data-submit]") as HTMLElement).hidden) void this.#submit();
      else this.#move(1);
    });
    this.querySelector("[data-next]")!.addEventListener("click", () => this.#move(1));
    this.querySelector("[data-back]")!.addEventListener("click", () => this.#move(-1));
    this.#antiBot = new AntiBot(this.#def, this.querySelector<HTMLElement>("[data-captcha]")!);
    this.#render();
  }

  #url(path: string) {
    return `${this.#def.apiBase}/api/forms/${encodeURIComponent(this.#def.slug)}${path}`;
  }

  #beacon(type: "view" | "start") {
    void fetch(this.#url("/events"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type }),
      keepalive: true,
    }).catch(() => {});
  }

  #answers() {
    return collect(this, this.#def.fields, this.#uploads);
  }

  #changed() {
    if (!this.#started) {
      this.#started = true;
      this.#beacon("start");
      this.#antiBot?.prepare();
    }
    this.#render();
  }

  async #onChange(event: Event) {
    const input = event.target as HTMLInputElement;
    if (input.type === "file") {
      const field = this.#def.fields.find((f) => f.id === input.name)!;
      this.#uploads.delete(field.id);
      if (input.files?.[0]) {
        // Submit waits for uploads still on their way
        const sending = uploadFile(this, this.#url("/uploads"), field, input).then((url) => {
          if (url) this.#uploads.set(field.id, url);
        });
        this.#sending.add(sending);
        await sending;
        this.#sending.delete(sending);
      }
    }
    this.#changed();
  }

  /** Shows the fields of the current page that show_if leaves visible. */
  #render() {
    const visible = new Set(visibleFields(this.#def.fields, this.#answers()).map((f) => f.id));
    const pages = this.#pagesWithFields(visible);
    if (!pages.includes(this.#page))
      this.#page = pages.find((p) => p > this.#page) ?? pages.at(-1) ?? 0;
    for (const box of this.querySelectorAll<HTMLElement>("[data-field]")) {
      box.hidden = Number(box.dataset.page) !== this.#page || !visible.has(box.dataset.field!);
    }
    const at = pages.indexOf(this.#page);
    const last = at === pages.length - 1;
    (this.querySelector("[data-back]") as HTMLElement).hidden = at <= 0;
    (this.querySelector("[data-next]") as HTMLElement).hidden = last;
    (this.querySelector("[data-submit]") as HTMLElement).hidden = !last;
    const bar = this.querySelector<HTMLElement>(".fd-progressbar");
    if (bar) {
      bar.style.setProperty("--fd-progress", `${Math.round(((at + 1) / pages.length) * 100)}%`);
      bar.setAttribute("aria-valuenow", String(at + 1));
      bar.setAttribute("aria-valuemax", String(pages.length));
    }
  }

  #pagesWithFields(visible: Set<string>): number[] {
    const pages = new Set<number>();
    for (const box of this.querySelectorAll<HTMLElement>("[data-field]")) {
      if (visible.has(box.dataset.field!)) pages.add(Number(box.dataset.page));
    }
    return [...pages].sort((a, b) => a - b);
  }

  /** Validates with the core; shows problems of the given fields only. Returns whether they pass. */
  #check(onlyPage: boolean): boolean {
    const result = validateAnswers(this.#def, this.#answers());
    const pageOf = (id: string) => this.#pageOf(id);
    const details = result.ok
      ? []
      : (result.failure.details ?? []).filter((d) => !onlyPage || pageOf(d.field) === this.#page);
    showErrors(this, this.#def.fields, details);
    if (details.length && !onlyPage) this.#page = pageOf(details[0]!.field);
    return details.length === 0;
  }

  #pageOf(id: string): number {
    return Number(
      this.querySelector<HTMLElement>(`[data-field="${CSS.escape(id)}"]`)?.dataset.page,
    );
  }

  #move(delta: number) {
    if (delta > 0 && !this.#check(true)) return;
    const visible = new Set(visibleFields(this.#def.fields, this.#answers()).map((f) => f.id));
    const pages = this.#pagesWithFields(visible);
    const next = pages[pages.indexOf(this.#page) + delta];
    if (next === undefined) return;
    this.#page = next;
    this.#render();
    this.querySelector<HTMLElement>(
      `[data-page="${next}"]:not([hidden]) input, [data-page="${next}"]:not([hidden]) textarea, [data-page="${next}"]:not([hidden]) select, [data-page="${next}"]:not([hidden]) button`,
    )?.focus();
  }

  async #submit() {
    const status = this.querySelector<HTMLElement>(".fd-status")!;
    if (this.#sending.size) {
      status.textContent = "Finishing your upload…";
      await Promise.all(this.#sending);
    }
    if (!this.#check(false)) {
      this.#render();
      status.textContent = "Please check the highlighted answers.";
      status.classList.add("fd-bad");
      this.querySelector<HTMLElement>(
        ".fd-invalid input, .fd-invalid textarea, .fd-invalid select",
      )?.focus();
      return;
    }
    const button = this.querySelector<HTMLButtonElement>("[data-submit]")!;
    button.disabled = true;
    status.classList.remove("fd-bad");
    status.textContent = "Sending…";
    try {
      const body = submitBody(this.#def, this, this.#answers());
      const antiBot = this.#antiBot!;
      const token = await antiBot.token();
      if (token !== undefined) body.turnstile_token = token;
      let answer = await send(this.#url("/submit"), this.#idempotencyKey, body);
      if (answer.code === "captcha_failed" && antiBot.usesAltcha) {
        // an expired challenge: solve a fresh one and try once more
        antiBot.renew();
        body.turnstile_token = await antiBot.token();
        answer = await send(this.#url("/submit"), this.#idempotencyKey, body);
      }
      if (answer.status === 201) return this.#done(answer.score);
      // the server checks access first and spends the anti-bot token after it: get a fresh one
      if (!["access_denied", "form_closed"].includes(answer.code ?? "")) antiBot.renew();
      if (answer.details?.length) {
        showErrors(this, this.#def.fields, answer.details);
        // the first problem may sit on another page of a multi-page form
        const page = this.#pageOf(answer.details[0]!.field);
        if (!Number.isNaN(page)) this.#page = page;
        this.#render();
      }
      status.textContent = answer.error ?? "Something went wrong. Please try again.";
      status.classList.add("fd-bad");
    } catch {
      status.textContent =
        "Could not reach the server. Check your connection and press Submit again.";
      status.classList.add("fd-bad");
    } finally {
      button.disabled = false;
    }
  }

  #done(score?: Score) {
    this.#form!.hidden = true;
    const done = this.querySelector<HTMLElement>(".fd-done")!;
    done.hidden = false;
    if (score && this.#def.showResults) {
      const p = done.querySelector<HTMLElement>(".fd-score")!;
      p.hidden = false;
      p.textContent = scoreText(score);
    }
    done.focus();
  }
}

customElements.define("formdown-form", FormdownForm);
