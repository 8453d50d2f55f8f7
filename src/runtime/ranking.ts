/**
 * Reordering for ranking lists: drag and drop with a pointer; Up/Down buttons and Alt+Arrow keys
 * for keyboards, each move announced to screen readers.
 */
export function setupRanking(list: HTMLElement, onChange: () => void): void {
  const items = () => [...list.querySelectorAll<HTMLLIElement>("li")];
  /** The first item cannot move up, the last not down. */
  const ends = () => {
    const all = items();
    all.forEach((li, i) => {
      li.querySelector<HTMLButtonElement>('[data-move="-1"]')!.disabled = i === 0;
      li.querySelector<HTMLButtonElement>('[data-move="1"]')!.disabled = i === all.length - 1;
    });
  };
  // an order put back (restore.ts: kept answers, a resumed partial) before or after this runs
  ends();
  new MutationObserver(ends).observe(list, { childList: true });
  const refresh = () => {
    ends();
    list.dataset.touched = "1";
    onChange();
  };
  list.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("[data-move]");
    if (!button) return;
    const li = button.closest("li")!;
    const up = button.dataset.move === "-1";
    const sibling = up ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (up) sibling.before(li);
    else sibling.after(li);
    refresh();
    const at = items().indexOf(li as HTMLLIElement) + 1;
    const status = list.parentElement?.querySelector<HTMLElement>("[data-rank-status]");
    // the sentence comes from the page, in its language
    if (status)
      status.textContent = status.dataset
        .moved!.replace(
          "{option}",
          li.querySelector(".fd-rank-label")?.textContent ?? li.dataset.value!,
        )
        .replace("{n}", String(at))
        .replace("{total}", String(items().length));
    // keep focus on the moved item's button so repeated presses keep moving it
    const again = li.querySelector<HTMLButtonElement>(`[data-move="${button.dataset.move}"]`)!;
    (again.disabled
      ? li.querySelector<HTMLButtonElement>("[data-move]:not([disabled])")!
      : again
    ).focus();
  });
  // Alt+ArrowUp/Down moves the item whose button has focus, as in list editors
  list.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const li = (event.target as HTMLElement).closest("li");
    const button = li?.querySelector<HTMLButtonElement>(
      `[data-move="${event.key === "ArrowUp" ? -1 : 1}"]`,
    );
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
  let dragged: HTMLLIElement | null = null;
  list.addEventListener("dragstart", (event) => {
    dragged = (event.target as HTMLElement).closest("li");
    dragged?.classList.add("fd-dragging");
    event.dataTransfer?.setData("text/plain", dragged?.dataset.value ?? "");
  });
  list.addEventListener("dragover", (event) => {
    event.preventDefault();
    const over = (event.target as HTMLElement).closest("li");
    if (!dragged || !over || over === dragged) return;
    const rect = over.getBoundingClientRect();
    if (event.clientY < rect.top + rect.height / 2) over.before(dragged);
    else over.after(dragged);
  });
  list.addEventListener("dragend", () => {
    dragged?.classList.remove("fd-dragging");
    dragged = null;
    refresh();
  });
}
