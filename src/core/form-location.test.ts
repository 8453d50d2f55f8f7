import { describe, expect, it } from "vitest";
import { duplicateSlugs, placeProblems } from "./form-location.ts";

describe("where a form file lives", () => {
  it("accepts forms/@handler/<slug>.md, relative or absolute", () => {
    expect(placeProblems({ file: "forms/@me/contact.md", slug: "contact", slugLine: 3 })).toEqual(
      [],
    );
    expect(placeProblems({ file: "/tmp/r/forms/@acme/a-b.md", slug: "a-b", slugLine: 3 })).toEqual(
      [],
    );
  });

  it("names a slug that differs from the file name at the slug's line", () => {
    expect(
      placeProblems({ file: "forms/@me/mismatch.md", slug: "different-slug", slugLine: 3 }),
    ).toEqual([
      {
        file: "forms/@me/mismatch.md",
        line: 3,
        path: "slug",
        message:
          '"different-slug" does not match the file name mismatch.md (rename the file to different-slug.md or change the slug)',
      },
    ]);
  });

  it("refuses a file outside forms/@<handler>/", () => {
    for (const file of [
      "contact.md",
      "forms/contact.md",
      "forms/me/contact.md",
      "src/@me/contact.md",
    ])
      expect(placeProblems({ file, slug: "contact", slugLine: 2 })[0]?.message).toBe(
        "a form file lives at forms/@<handler>/<slug>.md, e.g. forms/@me/contact.md",
      );
  });

  it("finds two files with one slug, in any folders", () => {
    expect(
      duplicateSlugs([
        { file: "forms/@me/a.md", slug: "a", slugLine: 2 },
        { file: "forms/@me/b.md", slug: "b", slugLine: 2 },
        { file: "forms/@team/a.md", slug: "a", slugLine: 4 },
      ]),
    ).toEqual([
      {
        file: "forms/@team/a.md",
        line: 4,
        path: "slug",
        message: '"a" is also the slug of forms/@me/a.md; slugs are unique',
      },
    ]);
  });
});
