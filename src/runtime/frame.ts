// Inside an embedding page's iframe (`?embed=1`, see public/embed.js): no page chrome, and the
// frame follows the content's height through postMessage.
export const params = new URLSearchParams(location.search);

/**
 * Posts to the embedding page (any site may frame a form: only to `to`'s origin when the message
 * carries answers); null when the form is not embedded.
 */
export const post =
  params.get("embed") === "1" && parent !== window
    ? (message: unknown, to = "*") => parent.postMessage(message, to)
    : null;

/** In a frame: embed styling, and the frame's height kept to the content's. */
export function fitFrame() {
  if (!post) return;
  document.documentElement.classList.add("fd-embed");
  if (params.get("scheme") === "light") document.documentElement.classList.add("fd-light");
  new ResizeObserver(() => {
    // the frame grows to the content: a focus that scrolled the short frame must not stick
    scrollTo(0, 0);
    post({ formdown: "height", height: Math.ceil(document.body.offsetHeight) });
  }).observe(document.body);
}
