/**
 * Finds the line of a key path (`["fields", 2, "show_if", "field"]`) in a YAML block-style
 * document, so errors can say `file:line`. A small indentation walk rather than a full YAML
 * parser: it understands the block mappings and sequences form files use, and falls back to
 * the deepest ancestor it found.
 */
export function locateLine(yaml: string, path: readonly PropertyKey[]): number | null {
  const lines = yaml.split(/\r?\n/);
  let start = 0;
  let end = lines.length;
  let indent = -1;
  let found: number | null = null;
  for (const key of path) {
    const hit =
      typeof key === "number"
        ? findItem(lines, start, end, indent, key)
        : findKey(lines, start, end, indent, String(key));
    if (!hit) break;
    found = hit.line;
    // an item's first key sits on the dash line itself; a key's value starts below it
    start = hit.inline ? hit.line : hit.line + 1;
    end = blockEnd(lines, hit.line, hit.indent, !hit.inline);
    indent = hit.indent;
  }
  return found === null ? null : found + 1;
}

interface Hit {
  line: number;
  indent: number;
  inline: boolean;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const blank = (line: string) => line.trim() === "" || line.trimStart().startsWith("#");

function findKey(
  lines: string[],
  start: number,
  end: number,
  parent: number,
  key: string,
): Hit | null {
  const re = new RegExp(
    `^(\\s*)(?:- +)?(["']?)${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\2\\s*:(\\s|$)`,
  );
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (blank(line)) continue;
    const m = re.exec(line);
    if (!m) continue;
    const dash = line.slice(m[1]!.length).startsWith("-");
    const at = dash ? line.indexOf(key.charAt(0), m[1]!.length) : m[1]!.length;
    if (at > parent) return { line: i, indent: at, inline: false };
  }
  return null;
}

function findItem(
  lines: string[],
  start: number,
  end: number,
  parent: number,
  index: number,
): Hit | null {
  let count = -1;
  let itemIndent = -1;
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (blank(line)) continue;
    const ind = indentOf(line);
    if (!line.trimStart().startsWith("- ") && line.trim() !== "-") continue;
    if (ind < parent) continue;
    if (itemIndent === -1) itemIndent = ind;
    if (ind !== itemIndent) continue;
    count++;
    if (count === index) return { line: i, indent: ind, inline: true };
  }
  return null;
}

/**
 * The end of the block that starts at `line`: the first later line indented less, or as much
 * (except that a key's sequence may sit at the key's own indentation, YAML's compact style).
 */
function blockEnd(lines: string[], line: number, indent: number, isKey: boolean): number {
  for (let i = line + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (blank(l)) continue;
    const ind = indentOf(l);
    if (ind < indent) return i;
    if (ind === indent && !(isKey && l.trimStart().startsWith("-"))) return i;
  }
  return lines.length;
}
