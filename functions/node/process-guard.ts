// The last guard of SPEC §23 ("no request can exit the server"): an error no handler caught — a
// stream's `error` nobody listened to, a promise nobody awaited — is logged as one line and the
// server lives on, instead of one request ending the process for everyone. Each such cause is
// still a bug, fixed where it is (issue 41: the COPY stream's error); this keeps a missed one
// from taking the service down with it.
import { missedErrorReporter } from "../error-line.ts";

let installed = false;

/**
 * Keeps the process alive through an uncaught exception or unhandled rejection, logging each as
 * one line (`log`, stderr by default). Installed once per process; later calls do nothing.
 */
export function guardProcess(log: (line: string) => void = (line) => console.error(line)): void {
  if (installed) return;
  installed = true;
  const report = missedErrorReporter(log);
  process.on("uncaughtException", (error) => report("an uncaught exception", error));
  process.on("unhandledRejection", (reason) => report("an unhandled rejection", reason));
}
