// Writing form files (SPEC §15). A form made through REST/MCP gets a minimal file; a change to a
// form that has a file is applied to that file's YAML document (the `yaml` package keeps comments,
// key order and quoting), and only the lines the change touches are taken from the re-printed
// document — every other line stays as the author wrote it, byte for byte.
import {
  Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { parseFormFile } from "./form-file.ts";
import { keyRank, minimalHeader, sameJson } from "./form-minimal.ts";
import { carryOver as carry } from "./line-diff.ts";
import type { Form } from "./schema.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Path = (string | number)[];

const PRINT = { lineWidth: 0 } as const;
// Form files are read by gray-matter's js-yaml, which still follows YAML 1.1: written as 1.1,
// text such as `2026-01-01`, `1_000` or `yes` is quoted and cannot come back as a date or number.
const YAML_1_1 = { version: "1.1" } as const;

/** The author's indentation: its width, and whether a list sits under its key or indented. */
function styleOf(header: string): { indent: number; indentSeq: boolean; lineWidth: 0 } {
  const lines = header.split("\n").filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  const widths = lines.map((l) => l.length - l.trimStart().length).filter((w) => w > 0);
  const indent = widths.length > 0 ? Math.min(...widths) : 2;
  let indentSeq = true;
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    const at = line.length - line.trimStart().length;
    if (prev && /^\s*- /.test(line) && /:\s*(#.*)?$/.test(prev) && !/^\s*- /.test(prev))
      if (at === prev.length - prev.trimStart().length) indentSeq = false;
  });
  return { indent, indentSeq, lineWidth: 0 };
}
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const json = (v: unknown) => JSON.parse(JSON.stringify(v ?? null)) as Json;

/** Short maps inside a field (show_if, media, matrix rows) are written inline, like the examples. */
function styleNew(node: Node, path: Path): Node {
  visit(node, {
    Map(_, map, nodePath) {
      const depth = path.length + nodePath.filter((n) => isSeq(n) || isMap(n)).length;
      const scalars = map.items.every((p) => isScalar(p.value));
      const inField = path[0] === "fields" && depth >= 3;
      if (inField && scalars && JSON.stringify(map.toJSON()).length <= 70) map.flow = true;
    },
  });
  return node;
}

/** A new form file with only the keys that differ from the defaults. */
export function serialiseForm(form: Form): string {
  const doc = new Document(minimalHeader(form), YAML_1_1);
  const fields = (doc.contents as YAMLMap).get("fields", true) as YAMLSeq | undefined;
  fields?.items.forEach((item, i) => {
    styleNew(item as Node, ["fields", i]);
  });
  return `---\n${doc.toString(PRINT)}---\n${form.body ? `\n${form.body}\n` : ""}`;
}

const keyOf = (pair: Pair) => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key));

/** Where a new key goes in a map: after the last key that comes before it in the documented order. */
function insertAt(map: YAMLMap, path: Path, key: string): number {
  const rank = keyRank(path, key);
  for (let i = map.items.length - 1; i >= 0; i--)
    if (keyRank(path, keyOf(map.items[i] as Pair)) <= rank) return i + 1;
  return 0;
}

interface Edit {
  doc: Document;
}

function editMap(e: Edit, map: YAMLMap, path: Path, a: Obj, b: Obj, m: Obj | undefined): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    if (path.length === 0 && key === "body") continue;
    const av = a[key];
    const bv = b[key];
    if (sameJson(av, bv)) continue;
    const pair = map.items.find((p) => keyOf(p as Pair) === key) as Pair | undefined;
    const mv = m?.[key];
    if (!pair) {
      if (mv === undefined) continue; // a default: nothing to write
      const at = insertAt(map, path, key);
      const node = styleNew(e.doc.createNode(mv) as Node, [...path, key]);
      map.items.splice(at, 0, e.doc.createPair(key, node));
      continue;
    }
    if (av === undefined) {
      map.items.splice(map.items.indexOf(pair), 1);
      continue;
    }
    const next = editNode(e, pair.value as Node, [...path, key], av, bv, mv);
    if (next) pair.value = next;
  }
}

/** Edits a node in place, or returns the node that replaces it. */
function editNode(
  e: Edit,
  node: Node,
  path: Path,
  a: Json,
  b: Json | undefined,
  m: Json | undefined,
): Node | null {
  if (isMap(node) && isObj(a) && isObj(b)) {
    editMap(e, node, path, a, b, isObj(m) ? m : undefined);
    return null;
  }
  if (isSeq(node) && Array.isArray(a) && Array.isArray(b) && node.items.length === b.length) {
    editSeq(e, node, path, a, b, Array.isArray(m) ? m : undefined);
    return null;
  }
  if (isScalar(node) && (a === null || typeof a !== "object")) {
    node.value = a; // the node keeps its quoting style
    return null;
  }
  return styleNew(e.doc.createNode(m ?? a) as Node, path);
}

const idOf = (v: Json | undefined) => (isObj(v) && typeof v.id === "string" ? v.id : null);

/** For each item of `a`, the index of the item of `b` it continues, or -1 for a new item. */
function matchItems(a: Json[], b: Json[]): number[] {
  if ([...a, ...b].every((v) => idOf(v) !== null)) {
    const index = new Map(b.map((v, j) => [idOf(v), j]));
    return a.map((v) => index.get(idOf(v)) ?? -1);
  }
  let head = 0;
  while (head < a.length && head < b.length && sameJson(a[head], b[head])) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    sameJson(a[a.length - 1 - tail], b[b.length - 1 - tail])
  )
    tail++;
  const middle = a.length - head - tail === b.length - head - tail;
  return a.map((_, i) => {
    if (i < head) return i;
    if (i >= a.length - tail) return b.length - (a.length - i);
    return middle ? i : -1;
  });
}

function editSeq(e: Edit, seq: YAMLSeq, path: Path, a: Json[], b: Json[], m: Json[] | undefined) {
  const match = matchItems(a, b);
  const items = a.map((value, i) => {
    const j = match[i]!;
    const mi = m?.[i];
    if (j < 0) return styleNew(e.doc.createNode(mi ?? value) as Node, [...path, i]);
    const node = seq.items[j] as Node;
    return editNode(e, node, [...path, i], value, b[j], mi) ?? node;
  });
  // a reordered list keeps its layout: a blank line belongs to the place, not to the item
  if (
    items.length === seq.items.length &&
    match.every((j) => j >= 0) &&
    match.some((j, i) => j !== i)
  ) {
    const spaces = seq.items.map((node) => (node as Node).spaceBefore);
    items.forEach((node, i) => {
      node.spaceBefore = spaces[i];
    });
  }
  seq.items = items;
}

const OPEN = /^\uFEFF?---[ \t]*\n/;

/**
 * The file `text` changed to define `after`: the header's YAML document is edited and only the
 * lines the change touches differ from `text`. A file that cannot be read as a form is replaced
 * by a minimal one.
 */
export function editFormFile(text: string, after: Form): string {
  const steps = editSteps(text, after);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `editFormFile` in steps: it yields between the `yaml` package's parse and prints of the
 * header, each a few hundred milliseconds on a dense 160 KB one (eleventh review: 1.3–3.2 s in
 * one piece), so a server can let the event loop turn between them.
 */
export function* editSteps(text: string, after: Form): Generator<void, string> {
  try {
    return yield* editInPlace(text, after);
  } catch {
    // the \`yaml\` package refuses what the edit made of the author's document (a list reordered
    // across an anchor leaves an alias before it): a minimal file, never a 500
    return serialiseForm(after);
  }
}

function* editInPlace(text: string, after: Form): Generator<void, string> {
  const crlf = text.includes("\r\n");
  const lf = crlf ? text.replace(/\r\n/g, "\n") : text;
  const open = OPEN.exec(lf);
  const close = open ? lf.indexOf("\n---", open[0].length - 1) : -1;
  const before = parseFormFile(lf);
  if (!open || close < 0 || !before.ok) return serialiseForm(after);
  const header = lf.slice(open[0].length, close + 1);
  yield;
  const doc = parseDocument(header, YAML_1_1);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return serialiseForm(after);
  const style = styleOf(header);
  yield;
  const printed = doc.toString(style);
  yield;
  editMap(
    { doc },
    doc.contents,
    [],
    json(after) as Obj,
    json(before.form) as Obj,
    minimalHeader(after),
  );
  yield;
  const reprinted = doc.toString(style);
  yield;
  const { body: _, ...want } = after;
  const means = (yaml: string) => {
    const check = parseFormFile(`---\n${yaml}---\n`);
    return check.ok && sameJson({ ...check.form, body: undefined }, want);
  };
  // a layout the line carry-over cannot follow (mixed indentation): the re-printed document,
  // which still keeps every comment and the author's order and quoting; and should even that
  // not mean the new form, a minimal file — never a file that says something else
  const carried = carry(header, printed, reprinted);
  yield;
  const edited = means(carried) ? carried : means(reprinted) ? reprinted : null;
  if (edited === null) return serialiseForm(after);
  let rest = lf.slice(close + 1);
  if ((before.form.body ?? "") !== (after.body ?? "")) {
    const line = rest.indexOf("\n");
    rest = `${line < 0 ? rest : rest.slice(0, line)}\n${after.body ? `\n${after.body}\n` : ""}`;
  }
  const out = `${open[0]}${edited}${rest}`;
  return crlf ? out.replace(/\n/g, "\r\n") : out;
}
