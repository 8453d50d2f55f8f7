// The deploy's smoke check (SPEC §17 "Deploy order", §22): after the forms are deployed, the
// server answers /api/health and each deployed form's page answers 200 within a minute (a CDN may
// take a moment to serve what was just published). Both deploy workflows run it through
// `formdown deploy --check`, which checks the pages of what that run deployed, so a broken deploy
// fails the run and a first run does not check the bundled examples it left out.
import type { Settings } from "./config.ts";

async function status(url: string): Promise<number | string> {
  try {
    const res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    const e = error as { cause?: { code?: string; message?: string }; message: string };
    return e.cause?.code ?? e.cause?.message ?? e.message;
  }
}

export interface SmokeOptions {
  /** How long a page may take to answer 200 (default 60 s); asked again every `everyMs`. */
  waitMs?: number;
  everyMs?: number;
}

/** What failed, one line each: `/api/health` first, then every page that did not answer 200. */
export async function smokeCheck(
  settings: Settings,
  pages: string[],
  { waitMs = 60_000, everyMs = 5_000 }: SmokeOptions = {},
): Promise<string[]> {
  const failed: string[] = [];
  const health = await status(`${settings.url}/api/health`);
  if (health !== 200) failed.push(`${settings.url}/api/health answered ${health}`);
  const until = Date.now() + waitMs;
  for (const page of pages) {
    let answer = await status(page);
    while (answer !== 200 && Date.now() + everyMs <= until) {
      await new Promise((r) => setTimeout(r, everyMs));
      answer = await status(page);
    }
    if (answer !== 200) failed.push(`${page} answered ${answer}`);
  }
  return failed;
}
