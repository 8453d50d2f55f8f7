import { afterEach, describe, expect, it, vi } from "vitest";
import { json, out, printable, say, table, toSink } from "./output.ts";

// an answer that would clear the screen, retitle the window and hide a line (SPEC §23)
const HOSTILE = "Ann\x1b[2J\x1b]0;pwned\x07\rBob\x9b31m\x7f\ttab\nline";
const SHOWN = "Ann\\x1b[2J\\x1b]0;pwned\\x07\\x0dBob\\x9b31m\\x7f\ttab\nline";

const written = (stream: "stdout" | "stderr") => {
  const spy = vi.spyOn(process[stream], "write").mockImplementation(() => true);
  return () => spy.mock.calls.map((c) => String(c[0])).join("");
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the CLI prints data, not terminal commands", () => {
  it("shows C0 (but line feed and tab), DEL and C1 controls escaped", () => {
    expect(printable(HOSTILE)).toBe(SHOWN);
    expect(printable("plain, naïve 🙂\n")).toBe("plain, naïve 🙂\n");
    expect(printable(printable(HOSTILE))).toBe(SHOWN);
  });

  it("escapes what out and say print", () => {
    const stdout = written("stdout");
    const stderr = written("stderr");
    out(HOSTILE);
    say(HOSTILE);
    expect(stdout()).toBe(`${SHOWN}\n`);
    expect(stderr()).toBe(`${SHOWN}\n`);
  });

  it("prints JSON with every control escaped, the same value", () => {
    const stdout = written("stdout");
    json({ name: HOSTILE });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be printed
    expect(stdout()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(JSON.parse(stdout())).toEqual({ name: HOSTILE });
  });

  it("aligns a table on the escaped cells", () => {
    const lines = table(
      ["TO", "SUBJECT"],
      [
        ["a\x1b[8m", "x"],
        ["bb", "y"],
      ],
    ).split("\n");
    expect(lines).toEqual(["TO        SUBJECT", "a\\x1b[8m  x", "bb        y"]);
  });

  it("streams an export unchanged into a pipe, printable on a terminal", async () => {
    const bytes = new TextEncoder().encode(`a,b\r\n"\x1b[2J ü",1\r\n`);
    async function* cut() {
      // a cut inside the ü and between a \r and its \n
      for (const at of [
        [0, 3],
        [3, 13],
        [13, 20],
        [20, bytes.length],
      ])
        yield bytes.subarray(at[0], at[1]);
    }
    const all = async (terminal: boolean) => {
      const parts: (string | Uint8Array)[] = [];
      for await (const p of toSink(cut(), terminal)) parts.push(p);
      return parts;
    };
    expect(Buffer.concat((await all(false)) as Uint8Array[])).toEqual(Buffer.from(bytes));
    expect((await all(true)).join("")).toBe(`a,b\n"\\x1b[2J ü",1\n`);
  });
});
