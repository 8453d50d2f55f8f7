import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { errorLine } from "../error-line.ts";

const guard = new URL("./process-guard.ts", import.meta.url).href;

/** A Node process that throws from a timer and leaves a rejection unhandled, then says so. */
function run(guarded: boolean) {
  const script = `
    ${guarded ? `const { guardProcess } = await import(${JSON.stringify(guard)}); guardProcess();` : ""}
    const { EventEmitter } = await import("node:events");
    setTimeout(() => { throw new Error("missed by its handler\\nsecond line"); }, 1);
    setTimeout(() => void Promise.reject(new TypeError("nobody awaited this")), 2);
    setTimeout(() => new EventEmitter().emit("error", new Error("a stream's error")), 3);
    setTimeout(() => console.log("still serving"), 50);
  `;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("the process guard (SPEC §23)", () => {
  it("logs what no handler caught as one line each and keeps the process alive", () => {
    const out = run(true);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe("still serving\n");
    const lines = out.stderr.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^Formdown: an uncaught exception .*Error: missed by its handler second line \(at /,
    );
    expect(lines[1]).toMatch(/an unhandled rejection .*TypeError: nobody awaited this/);
    expect(lines[2]).toMatch(/an uncaught exception .*a stream's error/);
  });

  it("is what keeps it alive: without it the first such error ends the process", () => {
    const out = run(false);
    expect(out.status).not.toBe(0);
    expect(out.stdout).toBe("");
  });

  it("writes a thrown non-error as one line too", () => {
    expect(errorLine("a\nb")).toBe("a b");
    expect(errorLine({ toString: () => "odd" })).toBe("odd");
  });
});
