// Bytes shipped per example page (HTML, CSS, JS; raw and gzip). Run after `npm run build`.
// "later" is what a page fetches after load: the proof-of-work worker and the ending's chunk at
// the first answer, the ranking and upload chunks on pages with such fields (the 3D viewer chunk
// only on pages that show a model, none of the examples).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const client = new URL("../dist/client/", import.meta.url).pathname;
const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;
const total = (files: Buffer[]) => files.reduce((n, f) => n + f.length, 0);
const totalGz = (files: Buffer[]) => files.reduce((n, f) => n + gz(f), 0);
const asset = (name: string) => readFileSync(join(client, "_astro", name));

for (const slug of readdirSync(join(client, "@me"))) {
  const html = readFileSync(join(client, "@me", slug, "index.html"));
  const assets = [...html.toString().matchAll(/(?:href|src)="\/_astro\/([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const css = assets.filter((a) => a.endsWith(".css")).map(asset);
  // the page's scripts with the chunks they import statically (loaded with the page)
  const loaded = new Set<string>();
  const follow = (name: string) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    for (const m of asset(name)
      .toString()
      .matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      follow(m[1]!);
  };
  for (const a of assets.filter((a) => a.endsWith(".js"))) follow(a);
  const js = [...loaded].map(asset);
  const page = html.toString();
  const lazy = ["solver-worker-", "solver.", "finish."];
  if (page.includes("data-ranking")) lazy.push("ranking.");
  // a form with logic (SPEC §24): its definition carries `logic`, and the page fetches the chunk
  if (page.includes('"logic":{')) lazy.push("logic.");
  if (page.includes('type="file"')) lazy.push("upload.");
  const later = js
    .flatMap((f) => [
      ...f
        .toString()
        .matchAll(/(?:solver-worker-|solver\.|finish\.|ranking\.|upload\.|logic\.)[\w-]+\.js/g),
    ])
    .map((m) => m[0])
    .filter((name) => lazy.some((prefix) => name.startsWith(prefix)))
    .filter((name, i, all) => all.indexOf(name) === i && existsSync(join(client, "_astro", name)))
    .map(asset);
  console.log(
    `${slug.padEnd(16)} HTML ${html.length} B (${gz(html)} gz) · CSS ${total(css)} B (${totalGz(css)} gz) · JS ${total(js)} B (${totalGz(js)} gz) + later ${total(later)} B (${totalGz(later)} gz) · total gzip ${gz(html) + totalGz(css) + totalGz(js) + totalGz(later)} B`,
  );
}

const embed = readFileSync(join(client, "embed.js"));
console.log(`embed.js         ${embed.length} B (${gz(embed)} gz; budget 2048 gz)`);
