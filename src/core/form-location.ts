// What deploy would refuse about where a form file lives (SPEC §15): a file outside
// forms/@<handler>/, a slug that differs from the file name, two files with one slug.
import type { FormFileError } from "./form-file.ts";

const PLACE = /(?:^|\/)forms\/@([a-z0-9][a-z0-9-]*)\/([^/]+)\.md$/;

export interface PlacedForm {
  /** The path as given (shown in messages). */
  file: string;
  slug: string;
  /** The line of the `slug:` key (1 when it cannot be found). */
  slugLine: number;
}

/** The problems with one file's place: its folder and its name against its slug. */
export function placeProblems(form: PlacedForm): FormFileError[] {
  const m = PLACE.exec(form.file.replace(/\\/g, "/"));
  if (!m)
    return [
      {
        file: form.file,
        line: 1,
        path: "",
        message: `a form file lives at forms/@<handler>/<slug>.md, e.g. forms/@me/${form.slug}.md`,
      },
    ];
  if (m[2] === form.slug) return [];
  return [
    {
      file: form.file,
      line: form.slugLine,
      path: "slug",
      message: `"${form.slug}" does not match the file name ${m[2]}.md (rename the file to ${form.slug}.md or change the slug)`,
    },
  ];
}

/** Files after the first that carry an already used slug (slugs are unique across the service). */
export function duplicateSlugs(forms: readonly PlacedForm[]): FormFileError[] {
  const first = new Map<string, string>();
  const out: FormFileError[] = [];
  for (const f of forms) {
    const seen = first.get(f.slug);
    if (seen === undefined) first.set(f.slug, f.file);
    else
      out.push({
        file: f.file,
        line: f.slugLine,
        path: "slug",
        message: `"${f.slug}" is also the slug of ${seen}; slugs are unique`,
      });
  }
  return out;
}
