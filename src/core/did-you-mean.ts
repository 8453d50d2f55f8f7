/**
 * "Did you mean" for typed names (keys, field types, commands, slugs): the closest candidate by
 * edit distance, counting a swap of two neighbours as one edit (`requried` → `required`).
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The closest candidate within a third of the word's length (at least one edit), or null. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  if (word.length > 64) return null; // a long word is no typo, and the table would be large
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === word) continue;
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === null ? "" : ` (did you mean "${c}"?)`;
}
