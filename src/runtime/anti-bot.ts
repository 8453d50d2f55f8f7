// The anti-bot token a submit carries as `turnstile_token`: the self-hosted ALTCHA proof of work
// (solved while the respondent fills the form in) or, in production, the Turnstile widget's.
import { loadTurnstile, resetTurnstile } from "./turnstile.ts";

export interface AntiBotSettings {
  humanness: boolean;
  apiBase: string;
  turnstileSiteKey: string | null;
  turnstileScript: string;
}

export class AntiBot {
  #settings: AntiBotSettings;
  #box: HTMLElement;
  #altcha: Promise<string> | null = null;
  #turnstile: string | null = null;

  constructor(settings: AntiBotSettings, box: HTMLElement) {
    this.#settings = settings;
    this.#box = box;
    const key = settings.turnstileSiteKey;
    if (settings.humanness && key) {
      loadTurnstile(box, settings.turnstileScript, key, (token) => {
        this.#turnstile = token;
      });
    }
  }

  /** Whether this form's submits need a token and it is the proof of work. */
  get usesAltcha(): boolean {
    return this.#settings.humanness && !this.#settings.turnstileSiteKey;
  }

  /** Starts the proof of work early (the first answer), so it is ready by Submit. */
  prepare(): void {
    if (this.usesAltcha) this.#altcha ??= this.#solve();
  }

  /** The token for the next submit; undefined when the form needs none. */
  async token(): Promise<string | null | undefined> {
    if (!this.#settings.humanness) return undefined;
    if (!this.usesAltcha) return this.#turnstile;
    this.prepare();
    return this.#altcha!;
  }

  /** The server spent the token on a submit it refused: get a fresh one. */
  renew(): void {
    if (!this.#settings.humanness) return;
    if (this.usesAltcha) this.#altcha = this.#solve();
    else {
      this.#turnstile = null;
      resetTurnstile(this.#box);
    }
  }

  /** A solved challenge; forgotten when it fails, so the next Submit fetches a new one. */
  #solve(): Promise<string> {
    // the solver is a chunk of its own, fetched with the challenge (the page's script stays small)
    const token = Promise.all([
      fetch(`${this.#settings.apiBase}/api/challenge`).then((res) => res.json()),
      import("./solver.ts"),
    ]).then(([challenge, solver]) => solver.solve(challenge));
    token.catch(() => {
      if (this.#altcha === token) this.#altcha = null;
    });
    return token;
  }
}
