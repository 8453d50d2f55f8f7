// A bench's server process runs as `npm start` runs the server after its first start
// (functions/node/low-memory.ts): its modules come from Node's compile cache, so its memory does
// not count the TypeScript stripper only a first start loads.
import { execFileSync } from "node:child_process";
import { withCompileCache } from "../functions/node/low-memory.ts";

/**
 * The environment for the server process `target`, its compile cache filled first: the target
 * started with the one argument `warm` loads its modules and exits.
 */
export function startedEnv(target: URL): NodeJS.ProcessEnv {
  const env = withCompileCache(process.env);
  execFileSync(process.execPath, [target.pathname, "warm"], { env, stdio: "inherit" });
  return env;
}
