// Build time only: where the forms of the folder the build reads (FORMDOWN_FORMS_DIR, as the
// content collection) were renamed from, after git. The static host then forwards old URLs.
import { execFileSync } from "node:child_process";
import { formIdOf, formRedirects } from "../core/form-renames.ts";

/**
 * The renames of form files under `dir`, oldest first, as git detected them (content similar
 * enough, as `formdown deploy` detects them). None outside a git checkout; a shallow clone knows
 * only the renames of the history it has.
 */
export function gitFormRenames(dir: string): [string, string][] {
  let log: string;
  try {
    log = execFileSync(
      "git",
      [
        "-C",
        dir,
        "log",
        "--reverse",
        "-M",
        "--diff-filter=R",
        "--name-status",
        "--relative",
      ].concat(["--format=", "--", "."]),
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 },
    );
  } catch {
    return [];
  }
  const out: [string, string][] = [];
  for (const line of log.split("\n")) {
    const [status, a = "", b = ""] = line.split("\t");
    const from = formIdOf(a);
    const to = formIdOf(b);
    if (status?.startsWith("R") && from && to) out.push([from, to]);
  }
  return out;
}

/** Each earlier form id of the build's forms and the live id it forwards to. */
export function movedForms(live: Iterable<string>): Map<string, string> {
  const dir = process.env.FORMDOWN_FORMS_DIR ?? "./forms";
  return formRedirects(gitFormRenames(dir), new Set(live));
}

let head: string | null | undefined;

/**
 * The commit the build reads its forms at (null outside a git checkout). A page built from files
 * cannot know its form's id (the build reads no database); it sends this with its API calls, and
 * the server, which records each commit it applied, knows which form held the slug then (SPEC
 * §22, functions/services/form-address.ts).
 */
export function buildCommit(): string | null {
  if (head !== undefined) return head;
  const dir = process.env.FORMDOWN_FORMS_DIR ?? "./forms";
  try {
    const out = execFileSync("git", ["-C", dir, "rev-parse", "--verify", "--quiet", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    head = /^[0-9a-f]{40,64}$/.test(out) ? out : null;
  } catch {
    head = null;
  }
  return head;
}
