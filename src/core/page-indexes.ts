/**
 * The page each field sits on. A survey shows one field a page; a form (or quiz) groups
 * consecutive fields with the same `step`; a form without steps is one page.
 */
export function pageIndexes(type: string, fields: readonly { step?: unknown }[]): number[] {
  if (type === "survey") return fields.map((_, i) => i);
  let page = 0;
  let current: unknown;
  return fields.map((field, i) => {
    if (i > 0 && field.step !== current) page++;
    current = field.step;
    return page;
  });
}
