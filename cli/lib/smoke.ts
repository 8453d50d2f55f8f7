// The deploy's smoke check (SPEC §17 "Deploy order"): after the forms are deployed, the server
// answers /api/health and each deployed form's page answers 200. A forms-only repository's deploy
// workflow runs it through `formdown deploy --check`, so a broken deploy fails the run.
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

/** What failed, one line each: `/api/health` first, then every page that did not answer 200. */
export async function smokeCheck(settings: Settings, pages: string[]): Promise<string[]> {
  const failed: string[] = [];
  const health = await status(`${settings.url}/api/health`);
  if (health !== 200) failed.push(`${settings.url}/api/health answered ${health}`);
  for (const page of pages) {
    const answer = await status(page);
    if (answer !== 200) failed.push(`${page} answered ${answer}`);
  }
  return failed;
}
