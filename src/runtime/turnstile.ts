type Api = { render(el: HTMLElement, o: object): void; reset?(el?: HTMLElement): void };
const api = () => (window as unknown as { turnstile?: Api }).turnstile;

/** Production anti-bot: loads the Turnstile script and renders its widget; tokens go to `onToken`. */
export function loadTurnstile(
  box: HTMLElement,
  script: string,
  siteKey: string,
  onToken: (token: string | null) => void,
): void {
  const tag = document.createElement("script");
  tag.src = script;
  tag.async = true;
  tag.onload = () =>
    api()?.render(box, {
      sitekey: siteKey,
      callback: (token: string) => onToken(token),
      "expired-callback": () => onToken(null),
    });
  document.head.append(tag);
}

/** A new token after the last one was spent by a submit the server refused. */
export function resetTurnstile(box: HTMLElement): void {
  api()?.reset?.(box);
}
