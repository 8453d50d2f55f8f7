// `formdown dev` without a Formdown checkout (SPEC §21): each form file is sent to the running
// server as a DRAFT under a slug of its own, `<slug>-dev`, and sent again on every save. The
// form's own slug is never touched: a live form stays as it is, and a slug that is still free
// stays free for `formdown deploy`. The server refuses to turn a live form into a draft, so a
// live form that happens to be called `<slug>-dev` is reported, never changed. The preview page
// polls the draft's version (`GET /api/preview/<token>`) and reloads itself after a save.
import { type FSWatcher, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { formatFormFileError } from "../../src/core/form-file.ts";
import { isTranslationFile } from "../../src/core/translation-file.ts";
import { api, CliError, usage } from "./api.ts";
import { checkFiles } from "./check-files.ts";
import type { Settings } from "./config.ts";
import { out, say } from "./output.ts";

/** The draft a form file is previewed as: its slug and `-dev`, within the 80 characters a slug has. */
const devSlug = (slug: string) => `${slug.slice(0, 76).replace(/-+$/, "")}-dev`;

/**
 * The file's text with `slug:` in its header set to the draft's slug: the line replaced, or added
 * as the header's last line, so every line keeps its number.
 */
function withDevSlug(text: string, slug: string): string {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) return text;
  const start = open[0].length;
  const end = text.slice(start).search(/^---[ \t]*\r?$/m);
  if (end === -1) return text;
  const header = text.slice(start, start + end);
  const line = /^slug[ \t]*:.*$/m;
  const next = line.test(header)
    ? header.replace(line, `slug: ${slug}`)
    : `${header}slug: ${slug}\n`;
  return `${text.slice(0, start)}${next}${text.slice(start + end)}`;
}

/** Every forms/@<handler>/*.md under `cwd` (translations left out), found again on each save. */
async function discover(cwd: string): Promise<string[]> {
  const dir = join(cwd, "forms");
  const found: string[] = [];
  for (const h of await readdir(dir, { withFileTypes: true }).catch(() => []))
    if (h.isDirectory() && h.name.startsWith("@"))
      for (const f of await readdir(join(dir, h.name)).catch(() => []))
        if (f.endsWith(".md") && !isTranslationFile(f)) found.push(join("forms", h.name, f));
  return found.sort();
}

export interface RemoteDev {
  /** Sends every file whose text changed since it was last looked at. */
  sync(): Promise<void>;
  close(): void;
}

/**
 * Previews `files` (none: every form file under `cwd`) as drafts on the server `settings` name,
 * and watches them. A file that does not validate prints its errors at file:line and sends
 * nothing: the last good draft stays what its preview shows.
 */
export async function startRemoteDev(
  settings: Settings,
  files: string[],
  cwd: string,
): Promise<RemoteDev> {
  const seen = new Map<string, string>();
  const paths = async () =>
    files.length > 0
      ? files.filter((f) => !isTranslationFile(f)).map((f) => relative(cwd, resolve(cwd, f)))
      : discover(cwd);
  const send = async (file: string, first: boolean) => {
    const [checked] = await checkFiles([join(cwd, file)]).catch(() => []);
    if (!checked || seen.get(file) === checked.text) return;
    seen.set(file, checked.text);
    if (checked.errors.length > 0 || !checked.form) {
      for (const e of checked.errors) say(formatFormFileError({ ...e, file }));
      return say(`✗ ${file}: not sent; the preview keeps the last good version`);
    }
    const slug = devSlug(checked.form.slug);
    try {
      // confirm: a draft holds test answers only, and none is ever deleted
      const done = await api(settings, "PUT /api/forms/:slug", {
        slug,
        confirm: true,
        body: { markdown: withDevSlug(checked.text, slug), status: "draft" },
      });
      if (first || done.result === "created") out(`${file}  ${done.preview_url}  (draft ${slug})`);
      else if (done.result === "updated") say(`↻ ${file} sent (draft ${slug})`);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      if (first && ["unreachable", "unauthorized"].includes(error.code)) throw error;
      seen.delete(file); // sent again on the next save
      say(`✗ ${file}: ${error.message}`);
    }
  };
  const sync = async (first = false) => {
    for (const file of await paths()) await send(file, first);
  };
  if ((await paths()).length === 0)
    throw usage("no form files given, and none under forms/@<handler>/");
  await sync(true);
  // watch the folders (editors often save by replacing the file, which a file watch would lose)
  const dirs =
    files.length > 0 ? [...new Set((await paths()).map((p) => dirname(join(cwd, p))))] : ["forms"];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const changed = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(() => sync()).catch((e) => say(`formdown dev: ${e}`));
    }, 50);
  };
  const watchers: FSWatcher[] = dirs.map((d) =>
    watch(resolve(cwd, d), { recursive: files.length === 0 }, changed),
  );
  return {
    sync: () => sync(),
    close() {
      for (const w of watchers) w.close();
      if (timer) clearTimeout(timer);
    },
  };
}
