/* Formdown embed (no dependencies): <div data-formdown="https://host/@me/slug" data-lang="de"></div>
   becomes an iframe of the form that grows with its content; a redirect ending moves this page. */
(() => {
  const frames = [];
  const run = () => {
    for (const box of document.querySelectorAll("[data-formdown]")) {
      if (box.querySelector("iframe")) continue;
      const url = new URL(box.getAttribute("data-formdown"), location.href);
      url.searchParams.set("embed", "1");
      // one of the form's languages (SPEC §20): the page goes to it, as its language switch would
      const lang = box.getAttribute("data-lang");
      if (lang) url.searchParams.set("lang", lang);
      // a light page keeps the form light: a frame in another colour scheme is painted opaque
      if (!getComputedStyle(box).colorScheme.includes("dark"))
        url.searchParams.set("scheme", "light");
      const frame = document.createElement("iframe");
      frame.src = url.href;
      frame.title = box.getAttribute("data-title") || "Form";
      frame.allow = "clipboard-write";
      frame.style.cssText = `display:block;width:100%;border:0;height:${box.getAttribute("data-height") || 480}px`;
      box.append(frame);
      frames.push([frame, url.origin]);
    }
  };
  addEventListener("message", (e) => {
    const found = frames.find(([f, origin]) => f.contentWindow === e.source && origin === e.origin);
    const m = e.data;
    if (!found || !m || typeof m !== "object") return;
    if (m.formdown === "height" && m.height > 0) found[0].style.height = `${Math.ceil(m.height)}px`;
    if (m.formdown === "redirect" && /^https?:\/\//i.test(m.url)) location.assign(m.url);
    if (m.formdown === "submitted")
      found[0].parentElement.dispatchEvent(
        new CustomEvent("formdown:submitted", { bubbles: true }),
      );
  });
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", run);
  else run();
})();
