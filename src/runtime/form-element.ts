// The respondent runtime: one custom element over server-rendered HTML. It imports the same
// show_if and answer validation as the server, so the page and the API can never disagree.
// This is the page's entry, within the page JavaScript budget (8 KB gzip with any one chunk it
// may fetch, test/pages/translation-files.test.ts): what a form needs to show its pages and check
// them. The rest are chunks fetched when a form needs them: sending, the anti-bot token and the
// ending at the first answer; uploads, ranking, partial saving (and a locked page's unlock,
// locked.ts).
import type { Field } from "../core/field-schema.ts";
import type { PipeValues } from "../core/piping.ts";
import { visibleFields } from "../core/show-if.ts";
import { validateAnswers } from "../core/validate-answers.ts";
import type { AntiBot } from "./anti-bot.ts";
import { collect } from "./collect.ts";
import type { Definition } from "./definition.ts";
import { beacon, reachAt } from "./dropoff.ts";
import { fitFrame, params } from "./frame.ts";
import { holdEvents, holdSubmit } from "./hold.ts";
import { problems, type Tr, translator } from "./messages.ts";
import { fillPipes, pageOf, pagesWithFields, setProgress, showStep } from "./page-view.ts";
import { restore, restoreKept, type Saved, save } from "./restore.ts";
import { shuffleOptions } from "./shuffle.ts";
import { showErrors } from "./ui.ts";

/** The respondent's path for some answers: the fields shown (and, with logic, the variables). */
export type Path = { shown: Field[]; variables?: Record<string, unknown> };

type Chunk<T> = Promise<T> | null;

/** Fetches a chunk when first asked; after a fetch that failed (offline), when asked again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let chunk: Chunk<T> = null;
  return () => {
    chunk ??= load();
    chunk.catch(() => {
      chunk = null;
    });
    return chunk;
  };
}

/**
 * The element. Its public members are what its other modules and chunks use (submit.ts,
 * upload.ts, partial.ts); the rest is private to it.
 */
export class FormdownForm extends HTMLElement {
  def!: Definition;
  tr!: Tr;
  /** The page (step) shown. */
  page = 0;
  /** Uploaded files' URLs by field id. */
  uploads = new Map<string, string>();
  /** Uploads on their way: a submit waits for them. */
  sending = new Set<Promise<void>>();
  /** One per page load: a retried submit can never be stored twice. */
  key = crypto.randomUUID();
  /** What this browser keeps of the answers (restore.ts). */
  saved: Saved = { a: {} };
  #form: HTMLFormElement | null = null;
  #partial: Chunk<typeof import("./partial.ts")> = null;
  /**
   * A form with logic (SPEC §24): its path comes from the logic chunk, not show_if alone:
   * connectedCallback imports that chunk for a definition with `logic`, sets this, and starts the
   * page then (holding a submit meanwhile: hold.ts' holdSubmit).
   */
  #logic?: (
    def: Definition,
    answers: Record<string, unknown>,
    hidden: Record<string, string>,
  ) => Path;

  connectedCallback() {
    this.def = JSON.parse(this.querySelector("#fd-def")!.textContent!) as Definition;
    // a form with logic starts once its chunk is here; a submit meanwhile waits for it
    if (!this.def.logic) return this.#start();
    const release = holdSubmit(this);
    void import("./logic.ts").then((m) => {
      this.#logic = m.pathOf;
      this.#start();
      release();
    });
  }

  #start() {
    const def = this.def;
    this.tr = translator(def.t);
    this.#form = this.querySelector("form");
    fitFrame();
    // a personal link's page says it was opened (SPEC §25)
    beacon(this, { type: "view", invite: params.get("invite") ?? undefined });
    // the 3D viewer is a separate chunk, fetched only by pages that show a model
    if (this.querySelector("model-viewer")) void import("@google/model-viewer");
    if (!this.#form) return;
    if (def.randomize) shuffleOptions(this);
    // rarely used parts are chunks of their own, fetched only by the pages that have them
    const lists = this.querySelectorAll<HTMLElement>("[data-ranking]");
    if (lists.length) {
      const release = holdEvents(lists, "click", (e) => {
        const button = (e.target as HTMLElement).closest<HTMLElement>("[data-move]");
        return button ? () => button.click() : undefined;
      });
      void import("./ranking.ts").then((m) => {
        for (const list of lists) m.setupRanking(list, () => this.#changed());
        release();
      });
    }
    restoreKept(this, params);
    // partial responses (SPEC §25): a chunk of their own, only where the form saves them
    if (def.partial) {
      this.#partial = import("./partial.ts");
      void this.#partial
        .then((m) => m.resumed(this))
        .then((got) => {
          if (!got) return;
          restore(this, def.fields, got.fields);
          if (got.page !== null) this.page = got.page;
          this.render();
        });
    }
    // Turnstile's widget is shown from the start (ALTCHA starts solving at the first answer)
    if (def.turnstileSiteKey) void this.antiBot();
    const form = this.#form;
    form.addEventListener("input", () => this.#changed());
    form.addEventListener("change", (e) => this.#onChange(e));
    form.addEventListener("focusin", (e) => this.#reachAt(e.target as HTMLElement));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      // Enter before the last page means Next, as respondents of paged forms expect
      if (this.#button("submit").hidden) return this.#move(1);
      this.#sender().then(
        (m) => m.submit(this),
        () => {
          const status = this.querySelector(".fd-status")!;
          status.textContent = this.tr("offline");
          status.classList.add("fd-bad");
        },
      );
    });
    this.#button("next").addEventListener("click", () => this.#move(1));
    this.#button("back").addEventListener("click", () => this.#move(-1));
    this.render();
  }

  #button(name: string) {
    return this.querySelector<HTMLButtonElement>(`[data-${name}]`)!;
  }

  /** Sending (submit.ts), fetched at the first answer so it is here by Submit. */
  #sender = once(() => import("./submit.ts"));
  /** The ending (finish.ts), fetched at the first answer so it is here after Submit. */
  finish = once(() => import("./finish.ts"));
  #antiBot = once(() =>
    import("./anti-bot.ts").then((m) => {
      const made = new m.AntiBot(this.def, this.querySelector<HTMLElement>("[data-captcha]")!);
      made.prepare();
      return made;
    }),
  );

  /**
   * The anti-bot token maker (anti-bot.ts) of a form that asks for one: fetched at the first
   * answer (ALTCHA then starts solving, so it is done by Submit), for Turnstile at the start.
   */
  antiBot(): Promise<AntiBot> | null {
    return this.def.humanness ? this.#antiBot() : null;
  }

  url(path: string) {
    const { def } = this;
    return `${def.apiBase}/api/forms/${def.form}${path}${def.query}`;
  }

  answers() {
    return collect(this, this.def.fields, this.uploads);
  }

  /** The fields shown for these answers (and, with logic, the variables' values). */
  #path(answers = this.answers()): Path {
    return (
      this.#logic?.(this.def, answers, this.hiddenValues()) ?? {
        shown: visibleFields(this.def.fields, answers),
      }
    );
  }

  #visible() {
    return new Set(this.#path().shown.map((f) => f.id));
  }

  values(): PipeValues {
    const answers = this.answers();
    // with logic, the path's variables (the rest of the path is not read)
    return { answers, ...this.#path(answers), hidden: this.hiddenValues() };
  }

  /** The form's hidden values, from the page's URL ("" when not given). */
  hiddenValues() {
    return Object.fromEntries(this.def.hidden.map((n) => [n, params.get(n) ?? ""]));
  }

  /** What a link or password form sends to be let in: its `access` (SPEC §19). */
  access(): string | undefined {
    const access = this.def.access;
    if (access === "link") return params.get("access") ?? "";
    if (access === "password")
      return this.querySelector<HTMLInputElement>("#fd-password")?.value ?? "";
  }

  #changed() {
    if (!this.saved.s) {
      this.saved.s = Date.now();
      beacon(this, { type: "start" });
    }
    void this.#sender();
    void this.antiBot();
    void this.finish();
    this.saved.a = this.answers();
    save(this.def.keep, this.saved);
    this.render();
  }

  #reachAt(target: HTMLElement | null) {
    reachAt(this, target, () => this.#path().shown);
  }

  async #onChange(event: Event) {
    const input = event.target as HTMLInputElement;
    this.#reachAt(input);
    if (input.type === "file") {
      // uploads are a chunk of their own; Submit waits for those still on their way
      const sending = import("./upload.ts").then((m) => m.upload(this, input));
      this.sending.add(sending);
      await sending;
      this.sending.delete(sending);
    }
    this.#changed();
  }

  /** Shows the fields of the current page that show_if leaves visible; pipes answers in. */
  render() {
    const visible = this.#visible();
    const pages = pagesWithFields(this, visible);
    if (!pages.includes(this.page))
      this.page = pages.find((p) => p > this.page) ?? pages.at(-1) ?? 0;
    for (const box of this.querySelectorAll<HTMLElement>("[data-field]"))
      box.hidden = Number(box.dataset.page) !== this.page || !visible.has(box.dataset.field!);
    fillPipes(this, this.values());
    const at = pages.indexOf(this.page);
    const total = pages.length;
    const last = at === total - 1;
    this.#button("back").hidden = at <= 0;
    this.#button("next").hidden = last;
    this.#button("submit").hidden = !last;
    const label = this.def.steps[this.page] ?? null;
    const survey = this.def.type === "survey";
    showStep(this, { at, total, label, survey }, this.tr, this.def.locale);
    setProgress(this, at / total, at, total);
  }

  /** Problems shown at their fields, in the page's language (`problems`). */
  show(details: { field: string; message: string }[]) {
    const { fields, locale } = this.def;
    showErrors(this, fields, problems(details, fields, this.answers(), this.tr, locale));
  }

  /** Validates with the core; shows problems of the given fields only; says whether they pass. */
  check(onlyPage: boolean): boolean {
    const answers = this.answers();
    const result = validateAnswers(this.def, answers, 0, this.#path(answers).shown);
    const at = (id: string) => pageOf(this, id);
    const details = result.ok
      ? []
      : (result.failure.details ?? []).filter((d) => !onlyPage || at(d.field) === this.page);
    this.show(details);
    if (details.length && !onlyPage) this.page = at(details[0]!.field);
    return details.length === 0;
  }

  #move(delta: number) {
    if (delta > 0 && !this.check(true)) return;
    const pages = pagesWithFields(this, this.#visible());
    const next = pages[pages.indexOf(this.page) + delta];
    if (next === undefined) return;
    this.page = next;
    this.render();
    void this.#partial?.then((m) => m.savePartial(this, next));
    const first = this.querySelector<HTMLElement>(
      `[data-page="${next}"]:not([hidden]) :is(input, textarea, select, button)`,
    );
    this.#reachAt(first);
    first?.focus();
  }
}

customElements.define("formdown-form", FormdownForm);
