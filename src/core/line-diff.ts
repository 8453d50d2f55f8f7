/**
 * Line diffs for keeping an author's file intact (SPEC §15). Form files are small (hundreds of
 * lines), so a plain longest-common-subsequence table is fast enough and easy to trust.
 */

/** A change: lines `[from, to)` of the old text become `lines`. */
export interface Hunk {
  from: number;
  to: number;
  lines: string[];
}

/**
 * Cells one longest-common-subsequence table may hold (16 MB, some 50 ms): a form file is small,
 * but a 256 KB header of comment lines (128,000 of them) asked for a table of 65 GB and held the
 * event loop minutes before that (20,000 lines: 11.6 s and 1.2 GB). Past it, the lines the two
 * texts share at their start and end are matched, and the middle only if its table fits.
 */
export const MAX_CELLS = 4_000_000;

/** For each line of `a`, the index of the line of `b` it is matched with (LCS), or -1. */
export function matchLines(a: readonly string[], b: readonly string[]): number[] {
  if ((a.length + 1) * (b.length + 1) <= MAX_CELLS) return lcs(a, b);
  const match = new Array<number>(a.length).fill(-1);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) match[head] = head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    match[a.length - 1 - tail] = b.length - 1 - tail;
    tail++;
  }
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if ((am.length + 1) * (bm.length + 1) <= MAX_CELLS)
    lcs(am, bm).forEach((j, i) => {
      if (j >= 0) match[head + i] = head + j;
    });
  return match;
}

function lcs(a: readonly string[], b: readonly string[]): number[] {
  const n = a.length;
  const m = b.length;
  // suffix table: len[i][j] = LCS length of a[i..] and b[j..]
  const len: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i]![j] =
        a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const match = new Array<number>(n).fill(-1);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) match[i++] = j++;
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return match;
}

/** The hunks that turn `a` into `b`, in order. */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  const match = matchLines(a, b);
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && match[i] === j) {
      i++;
      j++;
      continue;
    }
    const from = i;
    while (i < a.length && match[i] === -1) i++;
    const next = i < a.length ? match[i]! : b.length;
    hunks.push({ from, to: i, lines: b.slice(j, next) });
    j = next;
  }
  return hunks;
}

/**
 * Carries the change from `before` to `after` over onto `original`, where `before` is
 * `original` as a tool re-printed it (same content, perhaps different spacing or quoting). Lines
 * the change does not touch come from `original`, byte for byte; only the changed lines (and a
 * re-printed line directly inside a change) come from `after`.
 */
export function carryOver(original: string, before: string, after: string): string {
  if (before === after) return original;
  if (original === before) return after;
  const o = original.split("\n");
  const s0 = before.split("\n");
  const s1 = after.split("\n");
  const toOriginal = pairReprinted(matchLines(s0, o), o.length);
  const hunks = diffLines(s0, s1);
  const out: string[] = [];
  let oAt = 0; // next original line not yet copied
  let k = 0;
  while (k < hunks.length) {
    // widen the hunk to the re-printed lines around it, which have no original line of their own
    let from = hunks[k]!.from;
    while (from > 0 && toOriginal[from - 1] === -1) from--;
    let to = hunks[k]!.to;
    const lines: string[] = [...s0.slice(from, hunks[k]!.from), ...hunks[k]!.lines];
    for (;;) {
      while (to < s0.length && toOriginal[to] === -1 && !(hunks[k + 1]?.from === to)) {
        lines.push(s0[to]!);
        to++;
      }
      const next = hunks[k + 1];
      if (next && next.from === to) {
        lines.push(...next.lines);
        to = next.to;
        k++;
        continue;
      }
      break;
    }
    k++;
    // one re-printed line changed: change the author's own line the same way, if it can be found
    if (to === from + 1 && lines.length === 1 && toOriginal[from]! >= 0) {
      const patched = patchLine(o[toOriginal[from]!]!, s0[from]!, lines[0]!);
      if (patched !== null) lines[0] = patched;
    }
    const oFrom = from > 0 ? toOriginal[from - 1]! + 1 : 0;
    const oTo = to < s0.length ? toOriginal[to]! : o.length;
    out.push(...o.slice(oAt, oFrom), ...lines);
    oAt = Math.max(oAt, oTo);
  }
  out.push(...o.slice(oAt));
  return out.join("\n");
}

/**
 * Between two matched lines, as many unmatched lines on each side are the same lines re-printed
 * (`[a, b]` printed as `[ a, b ]`): pair them one to one so a change next to them leaves them be.
 */
function pairReprinted(match: number[], otherLength: number): number[] {
  const out = [...match];
  let i = 0;
  let prev = -1; // other-side index of the last matched line
  while (i <= out.length) {
    if (i < out.length && out[i] !== -1) {
      prev = out[i]!;
      i++;
      continue;
    }
    let end = i;
    while (end < out.length && out[end] === -1) end++;
    const next = end < out.length ? out[end]! : otherLength;
    if (end > i && next - prev - 1 === end - i)
      for (let k = i; k < end; k++) out[k] = prev + 1 + k - i;
    if (end >= out.length) break;
    i = end;
  }
  return out;
}

const WORD = /[\w.-]/;

/**
 * `original` is `before` as the author wrote it; `before` became `after`. Applies the same
 * in-line change (widened to whole words) to `original`, or null when it cannot be placed.
 */
function patchLine(original: string, before: string, after: string): string | null {
  if (original === before) return after;
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  while (head > 0 && WORD.test(before[head - 1]!)) head--;
  while (tail > 0 && WORD.test(before[before.length - tail]!)) tail--;
  const old = before.slice(head, before.length - tail);
  const now = after.slice(head, after.length - tail);
  if (old === "") return null;
  const at = original.indexOf(old);
  if (at < 0 || original.indexOf(old, at + 1) >= 0) return null;
  return original.slice(0, at) + now + original.slice(at + old.length);
}
