import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

/** Debian's chromium, installed with apt when missing (the project brings what its tests need). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  console.log("Installing chromium from Debian for the browser tests…");
  execSync("apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium", {
    stdio: "inherit",
  });
}

export async function launch(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
