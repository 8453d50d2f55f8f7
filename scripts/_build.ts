import { cp, mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildPages } from "../functions/node/build-pages.ts";

const src = process.argv[2] ?? "test/fixtures/examples";
const dir = await mkdtemp(join(tmpdir(), "fd-b-"));
await mkdir(join(dir, "@me"));
await cp(src, join(dir, "@me"), { recursive: true });
const outDir = new URL("../node_modules/.cache/fd-logic-build/", import.meta.url).pathname;
await buildPages({ outDir, env: { FORMDOWN_FORMS_DIR: dir }, quiet: true });
const astro = join(outDir, "client/_astro");
for (const f of (await readdir(astro)).filter((f) => f.endsWith(".js"))) {
  const b = await readFile(join(astro, f));
  console.log(f.padEnd(40), b.length, gzipSync(b, { level: 9 }).length);
}
