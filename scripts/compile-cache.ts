// `npm install` / `npm ci` (postinstall): fills Node's compile cache with the server's modules
// (functions/node/low-memory.ts), so that the first `npm start` too runs without loading the
// TypeScript stripper. Never fails the install: without the cache a start strips as before.
import { warmCompileCache } from "../functions/node/low-memory.ts";

try {
  await warmCompileCache();
} catch (error) {
  console.warn(
    `formdown: no compile cache (${(error as Error).message}); a start strips types itself`,
  );
}
