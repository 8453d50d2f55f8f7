// Lighthouse on every bundled example page (each form and each translation), desktop and mobile:
// layout shift (CLS), SEO, accessibility and performance, as an outside reviewer measures them.
// Usage: node bench/lighthouse.ts [runs]   (after `npm run build`; builds only when dist/ is
// missing or older than its sources). With several runs a row shows the worst of them.
// Exits 1, saying why, when a page shifts more than 0.02 or scores under 100 in SEO or
// accessibility. Performance is printed, not judged: on a shared machine it measures the load.
// Debian's chromium (/usr/bin/chromium, installed with apt when missing) runs the pages; the
// server is the embedded one on PGlite, with the examples deployed from forms/ as `npm start`
// deploys them.

import "./reader-gone.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { ensurePagesBuilt } from "../functions/node/build-pages.ts";
import { startServer } from "../functions/node/server.ts";
import { ensureChromium } from "../scripts/chromium.ts";
import { BUNDLED_EXAMPLES } from "../src/core/bundled-examples.ts";

const runs = Number(process.argv[2] ?? 1);
const ROOT = new URL("../", import.meta.url).pathname;
const MAX_CLS = 0.02;

/** forms/@me/quiz.md → /@me/quiz; a translation forms/@me/product-survey.de.md → …/product-survey/de */
const pages = BUNDLED_EXAMPLES.map((file) => {
  const [, handler, slug, lang] = /^forms\/@([^/]+)\/([^.]+)(?:\.([a-z]{2,3}))?\.md$/.exec(file)!;
  return `/@${handler}/${slug}${lang ? `/${lang}` : ""}`;
});

let chromePath: string;
try {
  chromePath = ensureChromium("full");
} catch (error) {
  console.error(`bench/lighthouse: ${(error as Error).message}`);
  process.exit(1);
}
process.env.ASTRO_TELEMETRY_DISABLED ??= "1";
await ensurePagesBuilt();
const dataDir = mkdtempSync(join(tmpdir(), "bench-lighthouse-"));
const server = await startServer({
  env: { FORMDOWN_DATA_DIR: dataDir, FORMDOWN_REPO_DIR: ROOT, FORMDOWN_RATE_API: "0" },
  port: 0,
  host: "127.0.0.1",
  watchRepository: false,
  outboxSender: false,
  webhookSender: false,
  log: { info() {}, error: console.error },
});
let chrome: chromeLauncher.LaunchedChrome | undefined;
const failures: string[] = [];
try {
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  const header = ["page", "form factor", "CLS", "SEO", "a11y", "perf"];
  const rows: string[][] = [];
  for (const path of pages) {
    for (const factor of ["desktop", "mobile"] as const) {
      let cls = 0;
      const scores = { seo: 100, accessibility: 100, performance: 100 };
      const failed = new Set<string>();
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(
          `${server.url}${path}`,
          {
            port: chrome.port,
            logLevel: "error",
            onlyCategories: ["performance", "seo", "accessibility"],
          },
          factor === "desktop" ? desktopConfig : undefined,
        );
        const lhr = result?.lhr;
        if (!lhr || lhr.runtimeError) {
          failures.push(`${path} (${factor}): Lighthouse failed: ${lhr?.runtimeError?.message}`);
          continue;
        }
        cls = Math.max(cls, lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN);
        for (const key of Object.keys(scores) as (keyof typeof scores)[]) {
          scores[key] = Math.min(scores[key], Math.round((lhr.categories[key]?.score ?? 0) * 100));
          // what cost the points, named once per page and form factor
          if (key !== "performance")
            for (const ref of lhr.categories[key]?.auditRefs ?? []) {
              const audit = lhr.audits[ref.id];
              if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
                failed.add(`${key}: ${ref.id} (${audit.title})`);
            }
        }
      }
      rows.push([
        path,
        factor,
        cls.toFixed(3),
        String(scores.seo),
        String(scores.accessibility),
        String(scores.performance),
      ]);
      if (!(cls <= MAX_CLS))
        failures.push(`${path} (${factor}): CLS ${cls.toFixed(3)} > ${MAX_CLS}`);
      for (const why of failed) failures.push(`${path} (${factor}): ${why}`);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
} catch (error) {
  failures.push(`the run stopped: ${(error as Error).message}`);
} finally {
  chrome?.kill();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`\n${failures.length} problem(s):\n${failures.map((f) => `  ${f}`).join("\n")}`);
  process.exit(1);
}
