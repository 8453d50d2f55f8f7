// The fault scenarios, shared by the short suites (test/faults/*.test.ts, in `npm test`) and the
// long runs (`node bench/faults.ts`). Each drives a real server under submit load, injects one
// fault, and reads every acknowledged response back through every read path.
export { type KillNineResult, killNineUnderLoad } from "./scenario-kill9.ts";
export { type MailOutageResult, mailOutage } from "./scenario-mail.ts";
export { type PostgresRestartResult, postgresRestartUnderLoad } from "./scenario-postgres.ts";
