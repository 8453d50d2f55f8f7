/**
 * "Did you mean" for typed names (keys, field types, commands, slugs): the closest candidate by
 * edit distance, counting a swap of two neighbours as one edit (`requried` → `required`).
 * With `max`, any distance over it is answered as `max + 1` as soon as it is certain: a hundred
 * unknown keys against a form's 500 field ids cost 128 ms of a core with full tables (issue 41).
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // three rows of the table: two rows back (for a swap), the last one, and this one
  let before: number[] = new Array(b.length + 1).fill(0);
  let last: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row: number[] = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      if (d < least) least = d;
    }
    // no later row can come back under its smallest value (a swap reaches two rows back, whose
    // smallest is at most one less than this row's)
    if (least > max) return max + 1;
    [before, last, row] = [last, row, before];
  }
  return Math.min(last[b.length]!, max + 1);
}

/** The closest candidate within a third of the word's length (at least one edit), or null. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  if (word.length > 64) return null; // a long word is no typo, and the table would be large
  const limit = Math.max(1, Math.floor(word.length / 3));
  const lower = word.toLowerCase();
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === word) continue;
    const other = c.toLowerCase();
    // only a candidate nearer than the best so far matters: the length difference alone may rule it out
    if (Math.abs(other.length - lower.length) >= bestDistance) continue;
    const d = editDistance(lower, other, bestDistance - 1);
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
