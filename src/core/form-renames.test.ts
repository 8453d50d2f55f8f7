import { describe, expect, it } from "vitest";
import { formIdOf, formRedirects, redirectsFile } from "./form-renames.ts";

describe("form redirects from renamed files", () => {
  it("reads a form id from a form file's path and nothing else", () => {
    expect(formIdOf("@me/pulse.md")).toBe("@me/pulse");
    expect(formIdOf("@me/pulse.de.md")).toBeNull();
    expect(formIdOf("pulse.md")).toBeNull();
    expect(formIdOf("@me/notes.txt")).toBeNull();
  });

  it("follows renames to the live form and leaves out paths that answer again or lead nowhere", () => {
    const renames = [
      ["@me/a", "@me/b"],
      ["@me/b", "@me/c"],
      ["@me/old", "@me/new"],
      ["@me/gone", "@me/removed-later"],
      ["@me/back", "@me/there"],
      ["@me/there", "@me/back"],
      ["@me/x", "@me/y"],
      ["@me/y", "@me/x"],
    ] as const;
    const live = new Set(["@me/c", "@me/new", "@me/back"]);
    expect(Object.fromEntries(formRedirects(renames, live))).toEqual({
      "@me/a": "@me/c",
      "@me/b": "@me/c",
      "@me/old": "@me/new",
      "@me/there": "@me/back",
    });
  });

  it("writes a 301 line for the page and one for anything under it", () => {
    expect(redirectsFile(new Map([["@me/old", "@me/new"]]))).toBe(
      "/@me/old /@me/new 301\n/@me/old/* /@me/new/:splat 301\n",
    );
  });
});
