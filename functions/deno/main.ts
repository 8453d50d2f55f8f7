// `npx deno run -A functions/deno/main.ts`: Formdown on Deno (functions/deno/serve.ts). Configure
// with the same environment variables as the Node server; FORMDOWN_PATH_PREFIX strips a prefix.
import { serveFormdown } from "./serve.ts";

await serveFormdown();
