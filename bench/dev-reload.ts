// `formdown dev`: time from saving a form file to the open page showing the change (goal ≤ 1 s),
// against a plain page.reload() of the same page measured in the same run (the floor).
import "./reader-gone.ts";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startDevServer } from "../functions/node/dev/dev-server.ts";
import { ensureChromium } from "../scripts/chromium.ts";

const runs = Number(process.argv[2] ?? 10);
const dir = await mkdtemp(join(tmpdir(), "formdown-dev-bench-"));
const file = join(dir, "forms/@me/bench.md");
const form = (title: string) =>
  `---\ntitle: ${title}\nslug: bench\nfields:\n  - id: a\n    type: text\n    label: A\n---\n`;
await mkdir(join(dir, "forms/@me"), { recursive: true });
await writeFile(file, form("Title 0"));
const dev = await startDevServer({
  files: [],
  cwd: dir,
  port: 0,
  log: { info: () => {}, error: console.error },
});
dev.watch();
const browser = await chromium.launch({
  executablePath: ensureChromium("full"),
  args: ["--no-sandbox"],
});
const page = await browser.newPage();
await page.goto(`${dev.url}/@me/bench`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const saves: number[] = [];
const reloads: number[] = [];
for (let i = 1; i <= runs; i++) {
  let t = performance.now();
  await page.reload();
  await page.locator("h1").waitFor();
  reloads.push(performance.now() - t);
  t = performance.now();
  await writeFile(file, form(`Title ${i}`));
  await page.locator("h1", { hasText: `Title ${i}` }).waitFor({ timeout: 10_000 });
  saves.push(performance.now() - t);
}
const ms = (x: number) => `${Math.round(x)} ms`;
console.log(
  `save → redrawn page: median ${ms(median(saves))}, max ${ms(Math.max(...saves))} over ${runs} saves (goal ≤ 1 s); plain reload median ${ms(median(reloads))}; ratio ${(median(saves) / median(reloads)).toFixed(1)}×; RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`,
);
await browser.close();
await dev.close();
await rm(dir, { recursive: true, force: true });
