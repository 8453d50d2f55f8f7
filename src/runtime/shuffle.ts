/** settings.randomize_options: choices (and select options after the placeholder) in random order. */
export function shuffleOptions(root: HTMLElement): void {
  for (const group of root.querySelectorAll<HTMLElement>("[data-options]")) {
    group.append(...shuffled([...group.children]));
  }
  for (const select of root.querySelectorAll<HTMLSelectElement>("select")) {
    const [placeholder, ...rest] = [...select.options];
    select.append(...shuffled(rest));
    if (placeholder) placeholder.selected = true;
  }
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
