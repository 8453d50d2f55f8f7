// Real values for the generated fuzz, by the name of the parameter or property that carries
// them: a slug, an id or a password that exists (from the fixtures' pools), a filter on real
// fields, a valid form definition with hostile text, dates and counts a handler accepts.
import fc from "fast-check";
import type { Hints } from "./fuzz-arbitraries.ts";
import { FIELDS, PASSWORD, type Pools } from "./fuzz-fixtures.ts";
import { hostileString } from "./fuzz-hostile.ts";

/** Real values, by the name of the parameter or property that carries them, from the pools. */
export function hintsFor(pools: Pools, template = ""): Hints {
  const pick = (pool: () => string[]) =>
    fc.constant(null).chain(() => (pool().length ? fc.constantFrom(...pool()) : fc.constant("x")));
  const id = template.includes("/keys/")
    ? pick(() => pools.keyIds)
    : template.includes("/fields/")
      ? pick(() => pools.fieldIds)
      : template.includes("/webhooks/")
        ? pick(() => pools.webhookIds)
        : pick(() => pools.responseIds);
  const fieldId = pick(() => pools.fieldIds);
  // a valid definition (an existing slug or a new one) with hostile text where text goes
  const text = fc.oneof(
    fc.constantFrom("Title", "Survey"),
    hostileString.map((t) => t.slice(0, 300)),
  );
  const definition = fc.record({
    title: text,
    slug: fc.oneof(
      pick(() => pools.slugs),
      fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/).map((x) => `g-${x}`),
    ),
    humanness: fc.constant(false),
    fields: fc
      .subarray(FIELDS, { minLength: 1 })
      .chain((fields) =>
        fc.tuple(
          ...fields.map((f) =>
            fc.option(text, { nil: undefined }).map((label) => (label ? { ...f, label } : f)),
          ),
        ),
      ),
  });
  const instant = fc
    .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString());
  const count = fc.integer({ min: 0, max: 200 });
  return {
    slug: pick(() => pools.slugs),
    id,
    form_id: pick(() => pools.formIds),
    response_id: pick(() => pools.responseIds),
    webhook_id: pick(() => pools.webhookIds),
    delivery_id: pick(() => pools.deliveryIds),
    key: pick(() => pools.uploadKeys),
    token: pick(() => pools.previewTokens),
    preview: pick(() => pools.previewTokens),
    field: fieldId,
    field_id: fieldId,
    access: fc.constantFrom(PASSWORD, "wrong", ""),
    password: fc.constantFrom(PASSWORD, "abc", "x".repeat(201)),
    // the columns a filter casts (submitted_at, version, lang) half the time, and boundary values
    where: fc.array(
      fc.record({
        field: fc.oneof(fieldId, fc.constantFrom("submitted_at", "version", "lang")),
        op: fc.constantFrom(
          "eq",
          "neq",
          "gt",
          "lt",
          "gte",
          "lte",
          "includes",
          "contains",
          "answered",
        ),
        value: fc.oneof(
          fc.jsonValue({ maxDepth: 1 }),
          fc.constantFrom(
            1,
            -1,
            2 ** 31,
            -(2 ** 31) - 1,
            2 ** 53,
            1e308,
            "2026-13-45",
            "99999-01-01",
          ),
        ),
      }),
      { maxLength: 3 },
    ),
    fields: fc.dictionary(fieldId, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
    since: instant,
    until: instant,
    limit: count,
    offset: count,
    page: count,
    definition,
    markdown: definition.map((d) => `---\n${JSON.stringify(d)}\n---\n`),
    url: fc.constantFrom("https://example.org/hook", "http://127.0.0.1:1/x", "javascript:alert(1)"),
  };
}
