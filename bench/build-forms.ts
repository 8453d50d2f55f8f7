// Build time for N generated forms (default 1,000) into a temporary folder. Goal: ≤ 60 s.
import "./reader-gone.ts";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const n = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), "formdown-forms-"));
for (let i = 0; i < n; i++) {
  const handler = `user${i % 20}`;
  mkdirSync(join(dir, `@${handler}`), { recursive: true });
  writeFileSync(
    join(dir, `@${handler}`, `form-${i}.md`),
    `---\ntitle: Generated form ${i}\nslug: form-${i}\nfields:\n  - id: name\n    type: text\n    label: Name\n  - id: score\n    type: nps\n    label: Score\n  - id: pick\n    type: radio\n    label: Pick one\n    options: [a, b, c]\n---\n\nForm number **${i}**.\n`,
  );
}
process.env.FORMDOWN_FORMS_DIR = dir;
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { build } = await import("astro");
const start = performance.now();
// inside the project, so the server chunks resolve node_modules
const outDir = new URL("../node_modules/.cache/formdown-bench-dist/", import.meta.url).pathname;
await build({ root: new URL("../", import.meta.url).pathname, outDir, logLevel: "error" });
const seconds = (performance.now() - start) / 1000;
const pages = readdirSync(join(outDir, "client"), { recursive: true }).filter((f) =>
  String(f).endsWith("index.html"),
).length;
console.log(
  `${n} forms → ${pages} pages built in ${seconds.toFixed(1)} s (goal ≤ 60 s); peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
);
rmSync(outDir, { recursive: true, force: true });
rmSync(dir, { recursive: true, force: true });
