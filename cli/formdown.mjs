#!/usr/bin/env node
// `formdown`: the terminal surface (cli/main.ts). Plain JavaScript, so that Node turns its compile
// cache on before it meets any TypeScript: it keeps the compiled code of the modules it loads,
// the TypeScript ones stripped of their types, and every run after the first neither strips nor
// compiles them (`formdown --version`: 0.11 s and 69 MB with a .ts entry, which loads the
// stripper first; 0.06 s and 53 MB so). Node 20 has no compile cache and runs as before. The
// bundle the server answers at `GET /cli/formdown.mjs` is this file with what it imports.
import * as nodeModule from "node:module";

nodeModule.enableCompileCache?.();
await import("./main.ts");
