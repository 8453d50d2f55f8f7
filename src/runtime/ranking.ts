/** Reordering for ranking lists: drag and drop with a pointer, Up/Down buttons for keyboards. */
export function setupRanking(list: HTMLElement, onChange: () => void): void {
  const items = () => [...list.querySelectorAll<HTMLLIElement>("li")];
  const refresh = () => {
    const all = items();
    all.forEach((li, i) => {
      li.querySelector<HTMLButtonElement>('[data-move="-1"]')!.disabled = i === 0;
      li.querySelector<HTMLButtonElement>('[data-move="1"]')!.disabled = i === all.length - 1;
    });
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
    // keep focus on the moved item's button so repeated presses keep moving it
    const again = li.querySelector<HTMLButtonElement>(`[data-move="${button.dataset.move}"]`)!;
    (again.disabled
      ? li.querySelector<HTMLButtonElement>("[data-move]:not([disabled])")!
      : again
    ).focus();
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
