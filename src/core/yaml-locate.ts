/**
 * Finds the line of a key path (`["fields", 2, "show_if", "field"]`) in a YAML block-style
 * document, so errors can say `file:line`. A small indentation walk rather than a full YAML
 * parser: it understands the block mappings and sequences form files use, and falls back to
 * the deepest ancestor it found. To locate many paths, make one `yamlLocator` and ask it each.
 */
export function locateLine(yaml: string, path: readonly PropertyKey[]): number | null {
  return yamlLocator(yaml)(path);
}

interface Hit {
  line: number;
  indent: number;
  inline: boolean;
}

/** One line of the document, read once. */
interface Line {
  blank: boolean;
  indent: number;
  /** `- ` or a lone `-`: an item of a sequence. */
  item: boolean;
  /** The key the line opens (`key:` or `- key:`), and the column where its name starts. */
  key?: string;
  keyAt?: number;
}

// a key, unquoted or quoted, after the indentation and an item's dash; read once per line. The
// indentation and the dash are taken whole (a lookahead and its backreference do not backtrack),
// and a plain key ends on a non-blank, so `\s*` is tried once per run of blanks: a line of blanks
// and letters is read in linear time, with the same keys as before (issue 41: with
// `(\s*)(- +)?(["']?)(.*?)\3\s*:`, one header line of 1,000 spaces, "x" and 1,000 spaces held the
// event loop 8 s).
const KEY = /^(?=(\s*))\1(?:(?=(- +))\2)?(?:(["'])(.*?)\3|(.*?\S)??)\s*:(?:\s|$)/;

function readLine(text: string): Line {
  const trimmed = text.trimStart();
  const indent = text.length - trimmed.length;
  const blank = trimmed === "" || trimmed.startsWith("#");
  const line: Line = { blank, indent, item: trimmed.startsWith("- ") || trimmed.trim() === "-" };
  if (blank) return line;
  const m = KEY.exec(text);
  const key = m?.[4] ?? m?.[5];
  if (m && key) {
    line.key = key;
    line.keyAt = m[2] ? m[1]!.length + m[2].length + (m[3]?.length ?? 0) : m[1]!.length;
  }
  return line;
}

/** The first index in the ascending `list` at or after `from`. */
function firstAtOrAfter(list: readonly number[], from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Reads the document once (each line's indentation and key, where each key and each item is)
 * and answers the line of any key path from that, 1-based, or null: locating a thousand problems
 * costs one reading, not a thousand (issue 41: a RegExp built and the document rescanned per
 * problem held the event loop 100 s for a 12,720-line translation file).
 */
export function yamlLocator(yaml: string): (path: readonly PropertyKey[]) => number | null {
  const lines = yaml.split(/\r?\n/).map(readLine);
  const byKey = new Map<string, number[]>();
  const items: number[] = [];
  const itemsAt = new Map<number, number[]>();
  lines.forEach((l, i) => {
    if (l.blank) return;
    if (l.key !== undefined) {
      const at = byKey.get(l.key);
      if (at) at.push(i);
      else byKey.set(l.key, [i]);
    }
    if (l.item) {
      items.push(i);
      const at = itemsAt.get(l.indent);
      if (at) at.push(i);
      else itemsAt.set(l.indent, [i]);
    }
  });

  // the first line in [start, end) with this key, deeper than the parent
  const findKey = (start: number, end: number, parent: number, key: string): Hit | null => {
    const at = byKey.get(key) ?? [];
    for (let k = firstAtOrAfter(at, start); k < at.length && at[k]! < end; k++) {
      const col = lines[at[k]!]!.keyAt!;
      if (col > parent) return { line: at[k]!, indent: col, inline: false };
    }
    return null;
  };
  // the index-th item of the first sequence in [start, end) not shallower than the parent
  const findItem = (start: number, end: number, parent: number, index: number): Hit | null => {
    let k = firstAtOrAfter(items, start);
    while (k < items.length && items[k]! < end && lines[items[k]!]!.indent < parent) k++;
    if (k >= items.length || items[k]! >= end) return null;
    const indent = lines[items[k]!]!.indent;
    const same = itemsAt.get(indent)!;
    const line = same[firstAtOrAfter(same, items[k]!) + index];
    return line !== undefined && line < end ? { line, indent, inline: true } : null;
  };
  // where each block ends, remembered: sibling blocks are disjoint, so each line is walked over
  // once per depth at most
  const ends = new Map<string, number>();
  const blockEnd = (line: number, indent: number, isKey: boolean): number => {
    const id = `${line}:${indent}:${isKey}`;
    let end = ends.get(id);
    if (end === undefined) {
      end = lines.length;
      for (let i = line + 1; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.blank) continue;
        if (l.indent < indent || (l.indent === indent && !(isKey && l.item))) {
          end = i;
          break;
        }
      }
      ends.set(id, end);
    }
    return end;
  };

  return (path) => {
    let start = 0;
    let end = lines.length;
    let indent = -1;
    let found: number | null = null;
    for (const key of path) {
      const hit =
        typeof key === "number"
          ? findItem(start, end, indent, key)
          : findKey(start, end, indent, String(key));
      if (!hit) break;
      found = hit.line;
      // an item's first key sits on the dash line itself; a key's value starts below it
      start = hit.inline ? hit.line : hit.line + 1;
      end = blockEnd(hit.line, hit.indent, !hit.inline);
      indent = hit.indent;
    }
    return found === null ? null : found + 1;
  };
}
