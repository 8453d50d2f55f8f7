// The respondent runtime: one custom element over server-rendered HTML. It imports the same
// show_if and answer validation as the server, so the page and the API can never disagree.
import type { PipeValues } from "../core/piping.ts";
import { visibleFields } from "../core/show-if.ts";
import { validateAnswers } from "../core/validate-answers.ts";
import { AntiBot } from "./anti-bot.ts";
import { collect } from "./collect.ts";
import type { Definition } from "./definition.ts";
import { fitFrame, params } from "./frame.ts";
import { holdRankings, holdSubmit } from "./hold.ts";
import { problems, refusal, type Tr, translator } from "./messages.ts";
import { fillPipes, pageOf, pagesWithFields, setProgress, showStep } from "./page-view.ts";
import { load, prefilled, restore, type Saved, save } from "./restore.ts";
import { beacon, send, submitBody } from "./send.ts";
import { shuffleOptions } from "./shuffle.ts";
import { showErrors } from "./ui.ts";

class FormdownForm extends HTMLElement {
  #def!: Definition;
  #tr!: Tr;
  #form: HTMLFormElement | null = null;
  #page = 0;
  #uploads = new Map<string, string>();
  #sending = new Set<Promise<void>>();
  #antiBot: AntiBot | null = null;
  #idempotencyKey = crypto.randomUUID();
  #saved: Saved = { a: {} };
  /** What the page shows after a submit: fetched while the respondent answers, used after. */
  #finish: Promise<typeof import("./finish.ts")> | null = null;
  #partial: Promise<typeof import("./partial.ts")> | null = null;

  connectedCallback() {
    // a locked page's script is a chunk of its own (unlock.ts)
    if (this.dataset.locked !== undefined) {
      const release = holdSubmit(this);
      return void import("./unlock.ts").then((m) => {
        m.unlock(this);
        release();
      });
    }
    this.#def = JSON.parse(this.querySelector("#fd-def")!.textContent!) as Definition;
    this.#tr = translator(this.#def.t);
    this.#form = this.querySelector("form");
    fitFrame();
    // a personal link's page says it was opened (SPEC §25)
    this.#beacon({ type: "view", invite: params.get("invite") ?? undefined });
    // the 3D viewer is a separate chunk, fetched only by pages that show a model
    if (this.querySelector("model-viewer")) void import("@google/model-viewer");
    if (!this.#form) return;
    if (this.#def.randomize) shuffleOptions(this);
    // rarely used parts are chunks of their own, fetched only by the pages that have them
    holdRankings(this, () => this.#changed());
    const saved = load(this.#def.slug);
    if (saved?.a) this.#saved = saved;
    // what the respondent answered before (kept in this browser) wins over a prefill
    restore(this, this.#def.fields, { ...prefilled(this.#def.fields, params), ...saved?.a });
    // partial responses (SPEC §25): a chunk of their own, only where the form saves them
    if (this.#def.partial) {
      this.#partial = import("./partial.ts");
      void this.#partial
        .then((m) => m.resumed(this.#def, this.#url("/partial"), this.#saved))
        .then((got) => {
          if (!got) return;
          restore(this, this.#def.fields, got.fields);
          if (got.page !== null) this.#page = got.page;
          this.#render();
        });
    }
    this.#form.addEventListener("input", () => this.#changed());
    this.#form.addEventListener("change", (e) => this.#onChange(e));
    this.#form.addEventListener("focusin", (e) => this.#reachAt(e.target as HTMLElement));
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

  #beacon(body: { type: string; field?: string; invite?: string | undefined }) {
    beacon(this.#url("/events"), body);
  }

  #answers() {
    return collect(this, this.#def.fields, this.#uploads);
  }

  #values(): PipeValues {
    return {
      answers: this.#answers(),
      hidden: Object.fromEntries(this.#def.hidden.map((n) => [n, params.get(n) ?? ""])),
    };
  }

  #changed() {
    if (!this.#saved.s) {
      this.#saved.s = Date.now();
      this.#beacon({ type: "start" });
    }
    this.#antiBot?.prepare();
    this.#finish ??= import("./finish.ts");
    this.#saved.a = this.#answers();
    save(this.#def.slug, this.#saved);
    this.#render();
  }

  /**
   * Drop-off: a field is reached when it (or a later one) is focused or answered, or its page is
   * shown. Each answerable field the respondent reaches is reported once, in form order, and no
   * answer travels with it (migration 20261124000300 says how stats count them).
   */
  #reachAt(target: HTMLElement | null) {
    const id = target?.closest<HTMLElement>("[data-field]")?.dataset.field;
    const index = this.#def.fields.findIndex((f) => f.id === id);
    if (index < 0) return;
    const visible = visibleFields(this.#def.fields, this.#answers());
    const from = this.#saved.f ?? -1;
    this.#def.fields.forEach((field, i) => {
      if (i > from && i <= index && field.type !== "statement" && visible.includes(field))
        this.#beacon({ type: "progress", field: field.id });
    });
    if (index > from) this.#saved.f = index;
    save(this.#def.slug, this.#saved);
  }

  async #onChange(event: Event) {
    const input = event.target as HTMLInputElement;
    this.#reachAt(input);
    if (input.type === "file") {
      const field = this.#def.fields.find((f) => f.id === input.name)!;
      this.#uploads.delete(field.id);
      if (input.files?.[0]) {
        // Submit waits for uploads still on their way
        const access = submitBody(this.#def, this, {}).access;
        const sending = import("./upload.ts").then(async (m) => {
          const parts = await m.uploadParts(access, this.#antiBot, this.#def.preview);
          const url = await m.uploadFile(
            this,
            this.#url("/uploads"),
            field,
            input,
            this.#tr,
            parts,
          );
          if (url) this.#uploads.set(field.id, url);
        });
        this.#sending.add(sending);
        await sending;
        this.#sending.delete(sending);
      }
    }
    this.#changed();
  }

  /** The ids of the fields show_if leaves visible, and the pages that have one. */
  #visible() {
    const visible = new Set(visibleFields(this.#def.fields, this.#answers()).map((f) => f.id));
    return { visible, pages: pagesWithFields(this, visible) };
  }

  /** Shows the fields of the current page that show_if leaves visible; pipes answers in. */
  #render() {
    const { visible, pages } = this.#visible();
    if (!pages.includes(this.#page))
      this.#page = pages.find((p) => p > this.#page) ?? pages.at(-1) ?? 0;
    for (const box of this.querySelectorAll<HTMLElement>("[data-field]")) {
      box.hidden = Number(box.dataset.page) !== this.#page || !visible.has(box.dataset.field!);
    }
    fillPipes(this, this.#values());
    const at = pages.indexOf(this.#page);
    const last = at === pages.length - 1;
    (this.querySelector("[data-back]") as HTMLElement).hidden = at <= 0;
    (this.querySelector("[data-next]") as HTMLElement).hidden = last;
    (this.querySelector("[data-submit]") as HTMLElement).hidden = !last;
    const label = this.#def.steps[this.#page] ?? null;
    const survey = this.#def.type === "survey";
    showStep(this, { at, total: pages.length, label, survey }, this.#tr, this.#def.locale);
    setProgress(this, at / pages.length, at, pages.length);
  }

  /** Problems shown at their fields, in the page's language (`problems`). */
  #show(details: { field: string; message: string }[]) {
    const { fields, locale } = this.#def;
    showErrors(this, fields, problems(details, fields, this.#answers(), this.#tr, locale));
  }

  /** Validates with the core; shows problems of the given fields only. Returns whether they pass. */
  #check(onlyPage: boolean): boolean {
    const result = validateAnswers(this.#def, this.#answers());
    const at = (id: string) => pageOf(this, id);
    const details = result.ok
      ? []
      : (result.failure.details ?? []).filter((d) => !onlyPage || at(d.field) === this.#page);
    this.#show(details);
    if (details.length && !onlyPage) this.#page = at(details[0]!.field);
    return details.length === 0;
  }

  #move(delta: number) {
    if (delta > 0 && !this.#check(true)) return;
    const { pages } = this.#visible();
    const next = pages[pages.indexOf(this.#page) + delta];
    if (next === undefined) return;
    this.#page = next;
    this.#render();
    void this.#partial?.then((m) =>
      m.savePartial(
        this.#def,
        this.#url("/partial"),
        this.#answers(),
        next,
        this.#saved,
        submitBody(this.#def, this, {}).access,
      ),
    );
    const first = this.querySelector<HTMLElement>(
      `[data-page="${next}"]:not([hidden]) :is(input, textarea, select, button)`,
    );
    this.#reachAt(first);
    first?.focus();
  }

  /** Says `key` in the status line, as a problem when `bad`. */
  #say(key: string, bad = true) {
    const status = this.querySelector<HTMLElement>(".fd-status")!;
    status.textContent = this.#tr(key);
    status.classList.toggle("fd-bad", bad);
  }

  async #submit() {
    if (this.#sending.size) {
      this.#say("uploading", false);
      await Promise.all(this.#sending);
    }
    if (!this.#check(false)) {
      this.#render();
      this.#say("check");
      this.querySelector<HTMLElement>(
        ".fd-invalid input, .fd-invalid textarea, .fd-invalid select",
      )?.focus();
      return;
    }
    const button = this.querySelector<HTMLButtonElement>("[data-submit]")!;
    button.disabled = true;
    const antiBot = this.#antiBot!;
    this.#say(antiBot.usesAltcha ? "verifying" : "sending", false);
    try {
      const body = submitBody(this.#def, this, this.#answers());
      if (this.#saved.r) body.resume = this.#saved.r;
      body.seconds = Math.round((Date.now() - (this.#saved.s ?? Date.now())) / 1000);
      const token = await antiBot.token();
      if (token !== undefined) body.turnstile_token = token;
      this.#say("sending", false);
      let answer = await send(this.#url("/submit"), this.#idempotencyKey, body);
      if (answer.code === "captcha_failed" && antiBot.usesAltcha) {
        // an expired challenge: solve a fresh one and try once more
        antiBot.renew();
        body.turnstile_token = await antiBot.token();
        answer = await send(this.#url("/submit"), this.#idempotencyKey, body);
      }
      if (answer.status === 201) return await this.#done(answer);
      // the server spends the anti-bot token once the form is open and its version known (access
      // is checked after it, SPEC §19): get a fresh one
      if (!["form_closed", "form_changed"].includes(answer.code ?? "")) antiBot.renew();
      // answers about fields this page does not have: the form changed under it (SPEC §16)
      const unknown = answer.details?.some((d) => Number.isNaN(pageOf(this, d.field)));
      if (answer.code === "form_changed" || unknown) return this.#say("changed");
      if (answer.details?.length) {
        this.#show(answer.details);
        // the first problem may sit on another page of a multi-page form
        const page = pageOf(this, answer.details[0]!.field);
        if (!Number.isNaN(page)) this.#page = page;
        this.#render();
      }
      this.#say(refusal(answer.code));
    } catch {
      this.#say("offline");
    } finally {
      button.disabled = false;
    }
  }

  async #done(answer: Awaited<ReturnType<typeof send>>) {
    this.#finish ??= import("./finish.ts");
    const { showDone } = await this.#finish;
    const values = { ...this.#values(), score: answer.score ?? null };
    save(this.#def.slug, null);
    showDone(this, this.#def, answer, values, this.#tr);
  }
}

customElements.define("formdown-form", FormdownForm);
