// The script of a link or password form shown without its content (LockedPage.astro; SPEC §19),
// instead of the form's: the password form's submit is held from the start (it must never fall
// back to the native submit, which would put the password in the address) until unlock.ts, a
// chunk of its own, takes it. The form it unlocks brings form-element.ts with it.
import { holdSubmit } from "./hold.ts";

for (const element of document.querySelectorAll<HTMLElement>("formdown-form[data-locked]")) {
  const release = holdSubmit(element);
  void import("./unlock.ts").then((m) => {
    m.unlock(element);
    release();
  });
}
