// Bytes shipped per example page (HTML, CSS, JS; raw and gzip). Run after `npm run build`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const client = new URL("../dist/client/", import.meta.url).pathname;
const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;
for (const slug of readdirSync(join(client, "@me"))) {
  const html = readFileSync(join(client, "@me", slug, "index.html"));
  const assets = [...html.toString().matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const sum = (ext: string) =>
    assets.filter((a) => a.endsWith(ext)).map((a) => readFileSync(join(client, a)));
  const css = sum(".css");
  const js = sum(".js");
  const total = (files: Buffer[]) => files.reduce((n, f) => n + f.length, 0);
  const totalGz = (files: Buffer[]) => files.reduce((n, f) => n + gz(f), 0);
  console.log(
    `${slug.padEnd(16)} HTML ${html.length} B (${gz(html)} gz) · CSS ${total(css)} B (${totalGz(css)} gz) · JS ${total(js)} B (${totalGz(js)} gz) · total gzip ${gz(html) + totalGz(css) + totalGz(js)} B`,
  );
}
