// What a form page shows when its script cannot run (scripting off, or a blocker such as the
// NoScript extension, which renders <noscript>). The server renders the page as the script shows
// it (a survey's first question, Next on a paged form) so that nothing moves after load; without
// the script nothing would ever reveal the rest. These rules, in a <noscript> of the <head> (so
// no script runs and nothing shifts for anyone else), show every question at once as one long
// form: its later steps and show_if fields (no script evaluates show_if), Submit instead of Next,
// and no step line or progress bar. Allowed by its hash in the page's CSP, like the brand colours.
// `:root` outranks form.css's `.fd-field[hidden]`, whichever stylesheet comes first in <head>.
export const NO_SCRIPT_CSS =
  ":root .fd-form .fd-field[hidden]{display:block}" +
  ":root .fd-nav [data-submit][hidden]{display:inline-block}" +
  ":root .fd-form :is([data-next],[data-step],.fd-progressbar){display:none}";
