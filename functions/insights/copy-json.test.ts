import { describe, expect, it } from "vitest";
import { jsonArray } from "./copy-json.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
async function framed(chunks: string[]): Promise<string> {
  async function* lines() {
    for (const c of chunks) yield bytes(c);
  }
  let out = "";
  const decoder = new TextDecoder();
  for await (const part of jsonArray(lines()))
    out += typeof part === "string" ? part : decoder.decode(part, { stream: true });
  return out;
}

describe("jsonArray frames COPY's lines as the batched JSON export does", () => {
  it("writes [] for no rows", async () => {
    expect(await framed([])).toBe("[]\n");
  });

  it("drops the last line's comma wherever the chunks are cut", async () => {
    const text = '{"id":"a"},\n{"id":"b"},\n{"id":"c"},\n';
    const whole = "[\n" + '{"id":"a"},\n{"id":"b"},\n{"id":"c"}' + "\n]\n";
    for (let cut = 1; cut < text.length; cut++)
      for (const tail of [1, 2, 3]) {
        const a = text.slice(0, cut);
        const rest = text.slice(cut);
        const parts = [a, rest.slice(0, Math.max(0, rest.length - tail)), rest.slice(-tail)];
        const out = await framed(parts.filter((p) => p.length > 0));
        expect(out).toBe(whole);
        expect(JSON.parse(out)).toEqual([{ id: "a" }, { id: "b" }, { id: "c" }]);
      }
  });
});
