// What a respondent does before a chunk of the page's script arrives is kept and done once it
// has: a slow line loses no ranking move, and a locked page's password form never falls back to
// its native submit, which would put the password in the address.

/**
 * Listens for `type` on the targets until the returned release is called; `keep` answers each
 * event with what to do again then (or nothing). Release after the chunk's own listeners are set.
 */
export function holdEvents(
  targets: Iterable<EventTarget>,
  type: string,
  keep: (event: Event) => (() => void) | undefined,
): () => void {
  const kept: (() => void)[] = [];
  const listener = (event: Event) => {
    const again = keep(event);
    if (again) kept.push(again);
  };
  for (const target of targets) target.addEventListener(type, listener);
  return () => {
    for (const target of targets) target.removeEventListener(type, listener);
    for (const again of kept) again();
  };
}

/** Holds the first submit of a form within `target` (a second one before release adds nothing). */
export function holdSubmit(target: EventTarget): () => void {
  let held = false;
  return holdEvents([target], "submit", (event) => {
    event.preventDefault();
    if (held) return undefined;
    held = true;
    return () => (event.target as HTMLFormElement).requestSubmit();
  });
}

/**
 * The page's ranking lists, set up by their chunk (ranking.ts) when it arrives; a move made
 * before it has is made again then. `changed` is told of each move.
 */
export function holdRankings(root: HTMLElement, changed: () => void): void {
  const lists = root.querySelectorAll<HTMLElement>("[data-ranking]");
  if (!lists.length) return;
  const release = holdEvents(lists, "click", (e) => {
    const button = (e.target as HTMLElement).closest<HTMLElement>("[data-move]");
    return button ? () => button.click() : undefined;
  });
  void import("./ranking.ts").then(({ setupRanking }) => {
    for (const list of lists) setupRanking(list, changed);
    release();
  });
}
