// `npm run build:deno`: the Deno entries bundled into dist/deno/ (functions/node/deno-bundle.ts).
import { join } from "node:path";
import { bundleDeno } from "../functions/node/deno-bundle.ts";

const outdir = process.argv[2] ?? join(import.meta.dirname, "../dist/deno");
const files = await bundleDeno(outdir);
console.log(
  `${files.length} files in ${outdir}: main.js (any Deno host), supabase.js (the Supabase function), drain.js and supabase-drain.js (the scheduled drain)`,
);
