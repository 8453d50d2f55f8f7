// The respondent runtime: one custom element over server-rendered HTML. It imports the same
// show_if and answer validation as the server, so the page and the API can never disagree.
import type { Field } from "../core/field-schema.ts";
import { visibleFields } from "../core/show-if.ts";
import { validateAnswers } from "../core/validate-answers.ts";
import { collect } from "./collect.ts";
import { setupRanking } from "./ranking.ts";
import { solve } from "./solver.ts";
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
  #token: Promise<string> | null = null;
  #turnstile: string | null = null;
  #idempotencyKey = crypto.randomUUID();
  #started = false;

  connectedCallback() {
    this.#def = JSON.parse(this.querySelector("#fd-def")!.textContent!) as Definition;
    this.#form = this.querySelector("form");
    this.#beacon("view");
    // the 3D viewer is a separate chunk, fetched only by pages that show a model
    if (this.querySelector("model-viewer")) void import("@google/model-viewer");
    if (!this.#form) return;
    if (this.#def.randomize) this.#shuffle();
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
    if (this.#def.humanness && this.#def.turnstileSiteKey) this.#loadTurnstile();
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
      // start the proof of work while the respondent types, so it is ready by Submit
      if (this.#def.humanness && !this.#def.turnstileSiteKey) this.#token = this.#altcha();
    }
    this.#render();
  }

  async #onChange(event: Event) {
    const input = event.target as HTMLInputElement;
    if (input.type === "file" && input.files?.[0]) {
      const field = this.#def.fields.find((f) => f.id === input.name)!;
      const url = await uploadFile(this, this.#url("/uploads"), field, input);
      if (url) this.#uploads.set(field.id, url);
      else this.#uploads.delete(field.id);
    }
    this.#changed();
  }

  async #altcha(): Promise<string> {
    const res = await fetch(`${this.#def.apiBase}/api/challenge`);
    return solve(await res.json());
  }

  #loadTurnstile() {
    const box = this.querySelector<HTMLElement>("[data-captcha]")!;
    const w = window as unknown as { turnstile?: { render(el: HTMLElement, o: object): void } };
    const script = document.createElement("script");
    script.src = this.#def.turnstileScript;
    script.async = true;
    script.onload = () =>
      w.turnstile?.render(box, {
        sitekey: this.#def.turnstileSiteKey,
        callback: (t: string) => {
          this.#turnstile = t;
        },
      });
    document.head.append(script);
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
    const pageOf = (id: string) =>
      Number(this.querySelector<HTMLElement>(`[data-field="${CSS.escape(id)}"]`)?.dataset.page);
    const details = result.ok
      ? []
      : (result.failure.details ?? []).filter((d) => !onlyPage || pageOf(d.field) === this.#page);
    showErrors(this, this.#def.fields, details);
    if (details.length && !onlyPage) this.#page = pageOf(details[0]!.field);
    return details.length === 0;
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

  #shuffle() {
    for (const group of this.querySelectorAll<HTMLElement>("[data-options]")) {
      const items = [...group.children];
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      group.append(...items);
    }
  }

  async #submit() {
    const status = this.querySelector<HTMLElement>(".fd-status")!;
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
      const body: Record<string, unknown> = { fields: this.#answers() };
      const params = new URLSearchParams(location.search);
      if (this.#def.hidden.length)
        body.hidden = Object.fromEntries(
          this.#def.hidden.flatMap((n) => (params.get(n) ? [[n, params.get(n)]] : [])),
        );
      if (this.#def.access === "link") body.access = params.get("access") ?? "";
      if (this.#def.access === "password")
        body.access = this.querySelector<HTMLInputElement>("#fd-password")?.value ?? "";
      if (this.#def.humanness && !this.#def.turnstileSiteKey) this.#token ??= this.#altcha();
      if (this.#def.humanness) {
        body.turnstile_token = this.#def.turnstileSiteKey ? this.#turnstile : await this.#token;
      }
      const res = await fetch(this.#url("/submit"), {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": this.#idempotencyKey },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => ({}))) as {
        error?: string;
        code?: string;
        details?: { field: string; message: string }[];
        score?: { points: number; max_points: number; percent: number; passed: boolean | null };
      };
      if (res.status === 201) return this.#done(json.score);
      if (json.code === "captcha_failed") this.#token = null;
      if (json.details) showErrors(this, this.#def.fields, json.details);
      status.textContent = json.error ?? "Something went wrong. Please try again.";
      status.classList.add("fd-bad");
    } catch {
      status.textContent =
        "Could not reach the server. Check your connection and press Submit again.";
      status.classList.add("fd-bad");
    } finally {
      button.disabled = false;
    }
  }

  #done(score?: { points: number; max_points: number; percent: number; passed: boolean | null }) {
    this.#form!.hidden = true;
    const done = this.querySelector<HTMLElement>(".fd-done")!;
    done.hidden = false;
    if (score && this.#def.showResults) {
      const p = done.querySelector<HTMLElement>(".fd-score")!;
      p.hidden = false;
      p.textContent = `Your score: ${score.points} of ${score.max_points} (${score.percent}%)${score.passed === null ? "" : score.passed ? " — passed" : " — not passed"}`;
    }
    done.focus();
  }
}

customElements.define("formdown-form", FormdownForm);
