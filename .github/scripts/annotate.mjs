// Turns `formdown validate --json` output into GitHub annotations at file:line; exits 1 on errors.
import { readFileSync } from "node:fs";

const results = JSON.parse(readFileSync(process.argv[2], "utf8"));
let errors = 0;
const encode = (text) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
for (const result of results) {
  for (const e of result.errors) {
    errors++;
    const message = encode(`${e.path ? `${e.path}: ` : ""}${e.message}`);
    console.log(`::error file=${e.file},line=${e.line},title=Invalid form::${message}`);
  }
  // a string a translation lacks (SPEC §20): shown, but it does not fail the check
  for (const w of result.warnings ?? [])
    console.log(
      `::warning file=${w.file},line=${w.line},title=Not translated::${encode(`${w.path}: ${w.message}`)}`,
    );
  if (result.valid) console.log(`ok ${result.file}`);
}
process.exit(errors > 0 ? 1 : 0);
