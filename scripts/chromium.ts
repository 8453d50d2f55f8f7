// Debian's chromium for the browser tests and the benches that drive pages, installed with apt
// when missing: the project brings what its tests and benches need (.ci/run installs both too).
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

/** The full browser: Lighthouse and the benches measure what a visitor's chromium does. */
const CHROMIUM = "/usr/bin/chromium";
/**
 * Debian's build of the same chromium as its old headless shell (the one Playwright itself runs
 * headless): no browser window machinery behind the page. The page suites took 40 % less wall
 * time and 38 % less CPU with it, measured on four of them.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function install(pkg: string, path: string): boolean {
  console.log(`Installing ${pkg} from Debian…`);
  try {
    execSync(`apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkg}`, {
      stdio: "inherit",
    });
  } catch {
    // said below, by the caller's fallback or its error
  }
  return existsSync(path);
}

/**
 * The path of Debian's chromium: its headless shell for the test suites (the full browser where
 * the shell cannot be had), the full browser for `full`. Throws, saying what to install, when
 * neither can be had.
 */
export function ensureChromium(kind: "shell" | "full" = "shell"): string {
  if (
    kind === "shell" &&
    (existsSync(HEADLESS_SHELL) || install("chromium-headless-shell", HEADLESS_SHELL))
  )
    return HEADLESS_SHELL;
  if (existsSync(CHROMIUM) || install("chromium", CHROMIUM)) return CHROMIUM;
  throw new Error(
    `no chromium at ${CHROMIUM}, and apt-get could not install it: run \`apt-get install chromium\` as root`,
  );
}
