import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const dir = new URL(".", import.meta.url).pathname;
const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

describe("the core is pure and isomorphic", () => {
  it.each(sources)("%s imports no node:, astro:, database or environment", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!);
    const allowed = file === "form-file.ts" ? ["gray-matter"] : [];
    for (const spec of imports) {
      expect(
        spec.startsWith("./") || spec === "zod" || allowed.includes(spec),
        `${file} imports ${spec}`,
      ).toBe(true);
    }
    expect(text).not.toMatch(/process\.env|import\.meta\.env/);
  });
});
