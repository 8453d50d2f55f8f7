import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const dir = new URL(".", import.meta.url).pathname;
// subfolders too (charts/, report-html/): a new area of the core is held to the same rule
const sources = readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .sort();

/** A relative import that stays inside src/core (a subfolder may climb back to the core). */
const insideCore = (file: string, spec: string) =>
  spec.startsWith("./") ||
  (spec.startsWith("../") && (spec.match(/\.\.\//g)?.length ?? 0) <= file.split("/").length - 1);

const DATABASE =
  /^(?:postgres|pg|pg-.*|@electric-sql\/.*|@supabase\/.*|mysql2?|better-sqlite3|sqlite3?|drizzle-orm.*|kysely|knex|prisma|@prisma\/.*)$/;

/** Every module specifier a source names: static, side-effect, re-export, dynamic and require. */
function specifiers(text: string): string[] {
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
    /\brequire\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]!));
}

/** The impurities of one core source: forbidden imports and environment reads. */
function impurities(file: string, text: string): string[] {
  const found: string[] = [];
  for (const spec of specifiers(text)) {
    if (spec.startsWith("node:")) found.push(`imports ${spec}`);
    else if (spec.startsWith("astro:") || spec === "astro" || spec.startsWith("astro/"))
      found.push(`imports ${spec}`);
    else if (DATABASE.test(spec)) found.push(`imports database package ${spec}`);
    else if (
      !insideCore(file, spec) &&
      spec !== "zod" &&
      !(file === "form-file.ts" && spec === "gray-matter") &&
      // the `yaml` package is pure JavaScript; form and translation files are written through
      // its documents
      // its documents (and a form's logic tests read through them, with their lines)
      !(
        (file === "form-write.ts" ||
          file === "translation-write.ts" ||
          file === "logic/test-file.ts") &&
        spec === "yaml"
      )
    )
      found.push(`imports ${spec}, which the core does not use`);
  }
  if (/\bprocess\s*(?:\.\s*env|\[\s*["']env["']\s*\])|import\.meta\.env|\bDeno\.env/.test(text))
    found.push("reads the environment");
  return found;
}

describe("the core is pure and isomorphic", () => {
  it("has the modules the brief lists", () => {
    for (const name of [
      "errors.ts",
      "field-schema.ts",
      "form-file.ts",
      "form-rules.ts",
      "public-form.ts",
      "schema.ts",
      "score.ts",
      "show-if.ts",
      "validate-answers.ts",
      "validate-form.ts",
      "yaml-locate.ts",
    ])
      expect(sources).toContain(name);
  });

  it.each(sources)(
    "%s imports no node:, astro:, database package, nor reads the environment",
    (file) => {
      expect(impurities(file, readFileSync(join(dir, file), "utf8"))).toEqual([]);
    },
  );

  it("only form-file.ts reaches for gray-matter", () => {
    const users = sources.filter((f) =>
      specifiers(readFileSync(join(dir, f), "utf8")).includes("gray-matter"),
    );
    expect(users).toEqual(["form-file.ts"]);
  });

  it("the scanner catches each kind of impurity", () => {
    expect(impurities("charts/x.ts", 'import { a } from "../svg.ts";')).toEqual([]);
    expect(impurities("charts/x.ts", 'import { a } from "../../lib/markdown.ts";')).toEqual([
      "imports ../../lib/markdown.ts, which the core does not use",
    ]);
    expect(impurities("x.ts", 'import { readFileSync } from "node:fs";')).toEqual([
      "imports node:fs",
    ]);
    expect(impurities("x.ts", "import 'node:process';")).toEqual(["imports node:process"]);
    expect(impurities("x.ts", 'const m = await import("astro:content");')).toEqual([
      "imports astro:content",
    ]);
    expect(impurities("x.ts", 'export { sql } from "postgres";')).toEqual([
      "imports database package postgres",
    ]);
    expect(impurities("x.ts", 'import { PGlite } from "@electric-sql/pglite";')).toEqual([
      "imports database package @electric-sql/pglite",
    ]);
    expect(impurities("x.ts", 'const c = require("@supabase/supabase-js");')).toEqual([
      "imports database package @supabase/supabase-js",
    ]);
    expect(impurities("x.ts", "const k = process.env.SECRET;")).toEqual(["reads the environment"]);
    expect(impurities("x.ts", 'const k = process["env"];')).toEqual(["reads the environment"]);
    expect(impurities("x.ts", 'import matter from "gray-matter";')).toHaveLength(1);
    expect(impurities("form-file.ts", 'import matter from "gray-matter";')).toEqual([]);
    expect(impurities("x.ts", 'import { z } from "zod";\nimport { a } from "./a.ts";')).toEqual([]);
  });
});
