// Hostile values for the generated fuzz (SPEC §23): boundary numbers, numbers as text, long,
// deep and wide values, prototype keys, and Unicode edges (lone surrogates, RTL, NUL, combining
// marks), and how a value goes into a URL.
import fc from "fast-check";

/** A short string (a key); made once and shared, as every string arbitrary costs to make. */
export const KEY = fc.string({ maxLength: 12 });

const BOUNDARY_NUMBERS = [
  0,
  -0,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  99_999_999_999,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  0.1,
  1.5,
];

const EDGE_STRINGS = [
  "",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "-0",
  "0x10",
  "99999999999",
  "9007199254740993",
  "null",
  "true",
  "[]",
  "{}",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\u202eevil\u202c",
  "مرحبا بالعالم",
  "\ufeffbom",
  "zero\u200bwidth",
  "e\u0301\u0301\u0301",
  "👍🏽👨‍👩‍👧",
  "\r\nx-injected: 1",
  "\u001b[31mred\u001b[0m",
  "../../etc/passwd",
  "%00%2e%2e%2f",
  "<script>alert(1)</script>",
  "'; drop table forms; --",
  "$1",
  "\u0024{x}{{x}}",
  "=cmd|' /C calc'!A0",
  "__proto__",
  "constructor",
  "2026-02-30",
  "0000-00-00T00:00:00Z",
  "+275760-09-13T00:00:00.001Z",
];

/** Long strings: each a few bytes repeated, from 1 KB to ~300 KB (bodies are capped at 1 MB). */
const longString = fc
  .tuple(
    fc.constantFrom("a", "𝕏", "\ud800", "\u0000", "é", "\u202e", "<b>", "'"),
    fc.constantFrom(1_000, 10_000, 100_000),
  )
  .map(([unit, n]) => unit.repeat(n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  // any UTF-16 units, lone surrogates included (fc.string's "binary" unit took seconds to make)
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
      .map((units) => String.fromCharCode(...units)),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS).map(String) },
  { weight: 1, arbitrary: longString },
);

const nested = (depth: number, leaf: unknown, asObject: boolean): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
};

/** An object whose own `__proto__` key survives JSON (as a parsed body has it). */
const protoKeys = fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{}}'));

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(64, 1_000), fc.boolean())
      .map(([depth, asObject]) => nested(depth, "\ud800", asObject)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(1_000, 20_000)
      .map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? i : `k${i}`))),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(1_000, 20_000)
      .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
  },
  { weight: 1, arbitrary: protoKeys },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A key no schema declares: a stray name, a prototype name, an empty or odd one. */
export const unknownKey = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "", "extra", "\ud800", "a.b", "$where"),
  KEY,
);

/** Percent-encodes a string's UTF-16 units one by one, so lone surrogates come out as bytes too. */
export function encodeLoose(text: string): string {
  let out = "";
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0); // a lone surrogate: its CESU-8 bytes
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    }
  }
  return out;
}

/** A value as a query parameter or path segment says it: strings as they are, the rest as JSON. */
export const asText = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
