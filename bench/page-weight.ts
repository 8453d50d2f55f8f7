// The JavaScript a respondent's page loads (gzip -9), by kind of page and by moment: up front (the
// page's scripts and what they import statically: the budget, 8 KB), at its start (partial saving,
// ranking, a locked page's unlock), at the first answer (sending, the anti-bot token and its
// solver, the ending), on use (an upload) and after an unlock (the form's own script). Builds the
// bundled examples and one form of each kind (plain, partial, upload, password) into a folder of
// its own; `--dist <client dir>` weighs a build made elsewhere instead (an older checkout's).
//   npx node bench/page-weight.ts [--dist <dir>/client]
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildPages } from "../functions/node/build-pages.ts";

const NAME = "  - { id: name, type: text, label: Name, required: true }";
/** One form of each kind: its front matter after the title and slug. */
const KINDS: Record<string, string[]> = {
  plain: ["fields:", NAME, "  - { id: note, type: textarea, label: Note }"],
  partial: [
    "settings: { partial: true }",
    "fields:",
    "  - { id: name, type: text, label: Name, required: true, step: 1 }",
    "  - { id: email, type: email, label: Email, step: 2 }",
  ],
  upload: ["fields:", NAME, "  - { id: cv, type: file, label: CV }"],
  password: ["access: { mode: password }", "fields:", NAME],
};

const at = process.argv.indexOf("--dist");
let client = at > 0 ? process.argv[at + 1]! : "";
const cleanup: string[] = [];
if (!client) {
  const forms = mkdtempSync(join(tmpdir(), "formdown-weight-"));
  cleanup.push(forms);
  mkdirSync(join(forms, "@kinds"), { recursive: true });
  cpSync(
    new URL("../test/fixtures/examples/", import.meta.url).pathname,
    join(forms, "@examples"),
    {
      recursive: true,
    },
  );
  for (const [slug, rest] of Object.entries(KINDS))
    writeFileSync(
      join(forms, "@kinds", `${slug}.md`),
      ["---", `title: ${slug}`, `slug: ${slug}`, ...rest, "---", ""].join("\n"),
    );
  // inside the project, so the server chunks resolve node_modules
  const outDir = new URL("../node_modules/.cache/formdown-page-weight/", import.meta.url).pathname;
  cleanup.push(outDir);
  await buildPages({ outDir, env: { FORMDOWN_FORMS_DIR: forms }, quiet: true });
  client = join(outDir, "client");
}

const asset = (name: string) => readFileSync(join(client, "_astro", name));
const gz = (name: string) => gzipSync(asset(name), { level: 9 }).length;
/** A script and what it imports statically. */
const closure = (name: string, seen = new Set<string>()): Set<string> => {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const m of asset(name)
    .toString()
    .matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
    closure(m[1]!, seen);
  return seen;
};
/** The chunks a script imports dynamically. */
const dynamic = (name: string) =>
  [
    ...asset(name)
      .toString()
      .matchAll(/import\(`\.\/([^`]+\.js)`\)/g),
  ].map((m) => m[1]!);
const named = (prefix: string, from: Iterable<string>) =>
  [...from].filter((f) => f.startsWith(`${prefix}.`) || f.startsWith(`${prefix}-`));

/** Adds the chunks (with their static imports) not loaded yet; returns their gzip bytes. */
function load(loaded: Set<string>, chunks: string[]): number {
  let bytes = 0;
  for (const chunk of chunks)
    for (const f of closure(chunk))
      if (!loaded.has(f)) {
        loaded.add(f);
        bytes += gz(f);
      }
  return bytes;
}

/** Every chunk reachable by dynamic imports from these scripts. */
function reachable(from: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const visit = (f: string) => {
    for (const s of closure(f))
      for (const d of dynamic(s))
        if (!found.has(d)) {
          found.add(d);
          visit(d);
        }
  };
  for (const f of from) visit(f);
  return found;
}

const pages: [string, string][] = [];
for (const handler of readdirSync(client).filter((d) => d.startsWith("@")))
  for (const slug of readdirSync(join(client, handler)))
    if (existsSync(join(client, handler, slug, "index.html")))
      pages.push([
        `${handler}/${slug}`,
        readFileSync(join(client, handler, slug, "index.html"), "utf8"),
      ]);

for (const [path, html] of pages) {
  const entry = [...html.matchAll(/src="\/_astro\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const loaded = new Set<string>();
  const upFront = load(loaded, entry);
  const all = reachable(entry);
  const def =
    /<script type="application\/json" id="fd-def">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}";
  const locked = html.includes("data-locked");
  const uses = (key: string) => def.includes(`"${key}":true`);
  // at its start: what the page's script imports at once for this form
  const start = [
    ...(uses("partial") ? named("partial", all) : []),
    ...(def.includes('"logic":') ? named("logic", all) : []),
    ...(html.includes("data-ranking") ? named("ranking", all) : []),
    ...(locked ? named("unlock", all) : []),
  ];
  const atStart = load(loaded, start);
  // after an unlock: the form's own script (the locked page's has not loaded it)
  const afterUnlock = locked
    ? load(loaded, named("form-script", all).concat(named("form-element", all)))
    : 0;
  // the first answer: sending, the ending, the anti-bot token (with ALTCHA's solver) if asked for
  const humanness = locked || uses("humanness");
  const first = load(loaded, [
    ...named("submit", all),
    ...named("finish", all),
    ...(humanness ? [...named("anti-bot", all), ...named("solver", all)] : []),
  ]);
  const worker = humanness
    ? readdirSync(join(client, "_astro")).find((f) => f.startsWith("solver-worker"))
    : undefined;
  const inWorker = worker ? gz(worker) : 0;
  const onUse = html.includes('type="file"') ? load(loaded, named("upload", all)) : 0;
  const parts = [
    `up front ${upFront}`,
    `at start +${atStart}`,
    ...(locked ? [`after unlock +${afterUnlock}`] : []),
    `first answer +${first}${inWorker ? ` (+${inWorker} worker)` : ""}`,
    ...(onUse ? [`upload +${onUse}`] : []),
    `in all ${upFront + atStart + afterUnlock + first + onUse + inWorker}`,
  ];
  console.log(`${path.padEnd(24)} ${parts.join(" · ")}`);
}

const embed = join(client, "embed.js");
if (existsSync(embed))
  console.log(
    `embed.js                 ${gzipSync(readFileSync(embed), { level: 9 }).length} gz (budget 2048)`,
  );
for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
