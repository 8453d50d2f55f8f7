// What an error no handler caught is logged as (functions/node/process-guard.ts, the Deno guard in
// functions/deno/serve.ts): one line each, and not too many, so a client cannot fill the log.

/** At most this many lines a minute: a client repeating what slips through cannot fill the log. */
const LINES_PER_MINUTE = 20;

/** One line: the error's name and message, and where it was thrown. */
export function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500).replace(/\s+/g, " ");
  const at = error.stack
    ?.split("\n")
    .find((l) => l.trimStart().startsWith("at "))
    ?.trim();
  const text = `${error.name}: ${error.message}`.slice(0, 500).replace(/\s+/g, " ");
  return at ? `${text} (${at})` : text;
}

/** Reports what no handler caught as one line (`what` says how it was missed), a few a minute. */
export function missedErrorReporter(log: (line: string) => void) {
  let windowStart = 0;
  let lines = 0;
  let dropped = 0;
  return (what: string, error: unknown): void => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      if (dropped > 0) log(`Formdown: ${dropped} more errors no handler caught were not logged`);
      windowStart = now;
      lines = 0;
      dropped = 0;
    }
    if (lines++ >= LINES_PER_MINUTE) {
      dropped++;
      return;
    }
    log(`Formdown: ${what} (the server goes on): ${errorLine(error)}`);
  };
}
