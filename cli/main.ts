// `formdown`: the terminal surface. Every command except validate/init talks to the REST API.
import { cac } from "cac";
import { didYouMean } from "../src/core/did-you-mean.ts";
import { registerAccounts, registerKeys, registerLogin } from "./commands/accounts.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerDeploy } from "./commands/deploy.ts";
import { registerDev } from "./commands/dev.ts";
import { registerDoctor } from "./commands/doctor.ts";
import { registerEmbed } from "./commands/embed.ts";
import { registerExport } from "./commands/export.ts";
import { registerInit } from "./commands/init.ts";
import {
  registerOpen,
  registerOutbox,
  registerReport,
  registerStats,
} from "./commands/insights.ts";
import { registerInvite } from "./commands/invite.ts";
import { registerList } from "./commands/list.ts";
import { registerMembers } from "./commands/members.ts";
import { registerOperate } from "./commands/operate.ts";
import { registerPaths } from "./commands/paths.ts";
import { registerPlan } from "./commands/plan.ts";
import { registerPlanComment } from "./commands/plan-comment.ts";
import { registerResponses } from "./commands/responses.ts";
import { registerSelfUpdate } from "./commands/self-update.ts";
import { registerSubmissions } from "./commands/submissions.ts";
import { registerTest } from "./commands/test.ts";
import { registerValidate } from "./commands/validate.ts";
import { registerWebhooks } from "./commands/webhooks.ts";
import { CliError } from "./lib/api.ts";
import { printable } from "./lib/output.ts";

const cli = cac("formdown");
cli.option("--url <url>", "Server URL (FORMDOWN_URL; default http://localhost:4321)");
cli.option(
  "--key <key>",
  "API key (FORMDOWN_API_KEY, `formdown login`, or the local server's key file)",
);
cli.option("--debug", "Show stack traces");
for (const register of [
  registerInit,
  registerValidate,
  registerTest,
  registerPaths,
  registerDeploy,
  registerPlan,
  registerList,
  registerSubmissions,
  registerExport,
  registerStats,
  registerReport,
  registerOpen,
  registerAccounts,
  registerKeys,
  registerMembers,
  registerAudit,
  registerOutbox,
  registerLogin,
  registerDoctor,
  registerDev,
  registerEmbed,
  registerWebhooks,
  registerInvite,
  registerResponses,
  registerOperate,
  registerSelfUpdate,
  registerPlanComment,
]) {
  register(cli);
}
cli.help();
cli.version("0.1.0");

const debug = process.argv.includes("--debug");
try {
  cli.parse(process.argv, { run: false });
  // --help and --version have been answered by parse (cac unsets the command they came with,
  // `formdown stats retro --help` included): nothing is left to run or to call unknown
  const answered = Boolean(cli.options.help || cli.options.version);
  if (!answered && !cli.matchedCommand && cli.args.length > 0)
    throw new CliError(
      `unknown command "${cli.args[0]}"${didYouMean(
        String(cli.args[0]),
        cli.commands.map((c) => c.name.split(" ")[0]!).filter(Boolean),
      )} (see formdown --help)`,
      "usage",
      2,
    );
  if (!answered && !cli.matchedCommand) cli.outputHelp();
  if (!answered) await cli.runMatchedCommand();
} catch (error) {
  const e = error as Error & { code?: string; exitCode?: number };
  const usageError = e.name === "CACError";
  // the message may quote the server's answer: printable, as all its output (lib/output.ts)
  process.stderr.write(
    printable(
      `error: ${e.message}${e instanceof CliError && e.code !== "error" && e.code !== "usage" ? ` (${e.code})` : ""}\n`,
    ),
  );
  if (debug) process.stderr.write(`${e.stack}\n`);
  process.exitCode = usageError ? 2 : e instanceof CliError ? e.exitCode : 1;
}
