// `formdown test`'s core (SPEC §24): 1,000 logic test cases of a 50-field form with groups,
// jumps, page conditions, variables and endings, run on the same walk as the page and the
// server. Goal: ≤ 1 s. Prints the time of the run (the form's parse not included, one warm-up
// run first) and of one case. Usage: node bench/logic-test.ts [cases] [fields]
import { runCases } from "../src/core/logic/cases.ts";
import type { TestCase } from "../src/core/logic/logic-schema.ts";
import { formSchema } from "../src/core/schema.ts";

const cases = Number(process.argv[2] ?? 1000);
const size = Number(process.argv[3] ?? 50);

// ten pages of five fields: a choice that jumps, a number, a group-conditioned text, a
// checkbox, a statement that pipes the page's figure
const fields = Array.from({ length: size }, (_, i) => {
  const page = Math.floor(i / 5) + 1;
  const step = `Page ${page}`;
  switch (i % 5) {
    case 0:
      return {
        id: `pick_${i}`,
        type: "radio",
        options: [
          "a",
          "b",
          ...(page < size / 5 - 1 ? [{ label: "skip", goto: `Page ${page + 2}` }] : ["c"]),
        ],
        step,
      };
    case 1:
      return { id: `n_${i}`, type: "number", min: 0, max: 1000, step };
    case 2:
      return {
        id: `why_${i}`,
        type: "text",
        step,
        show_if: {
          all: [
            { field: `pick_${i - 2}`, op: "eq", value: "a" },
            {
              any: [
                { field: `n_${i - 1}`, op: "gt", value: 50 },
                { not: { field: `n_${i - 1}`, op: "answered" } },
              ],
            },
          ],
        },
      };
    case 3:
      return { id: `tags_${i}`, type: "checkbox", options: ["x", "y", "z"], step };
    default:
      // the page's own running total, piped as the respondent types (a variable per page)
      return { id: `total_${i}`, type: "statement", label: `This page: {var:page_${page}}`, step };
  }
});
const numbers = fields.filter((f) => f.type === "number").map((f) => f.id);
const form = formSchema.parse({
  title: "Bench",
  slug: "bench",
  hidden: ["src"],
  variables: [
    { id: "total", value: `sum(${numbers.join(", ")})` },
    ...numbers.map((n, k) => ({ id: `page_${k + 1}`, value: `${n} * 2` })),
    {
      id: "tags",
      value: fields
        .filter((f) => f.type === "checkbox")
        .map((f) => `count(${f.id})`)
        .join(" + "),
    },
    { id: "band", value: "if(total > 2000, 'high', if(total > 500, 'mid', 'low'))" },
  ],
  steps: [
    {
      id: "Page 3",
      show_if: {
        any: [
          { field: "hidden.src", op: "neq", value: "ads" },
          { field: "page_1", op: "lt", value: 100 },
        ],
      },
    },
  ],
  endings: [
    { id: "high", show_if: { field: "band", op: "eq", value: "high" }, title: "High" },
    {
      id: "mid",
      show_if: {
        all: [
          { field: "band", op: "eq", value: "mid" },
          { field: "tags", op: "gte", value: 3 },
        ],
      },
      title: "Mid",
    },
    { id: "rest", title: "Thanks" },
  ],
  fields,
});

// a seeded generator: the same cases every run
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
const tests: TestCase[] = Array.from({ length: cases }, (_, k) => {
  const answers: Record<string, unknown> = {};
  for (const f of fields) {
    if (random() < 0.2) continue;
    if (f.type === "radio") answers[f.id] = pick(["a", "b", "a", "skip"]);
    if (f.type === "number") answers[f.id] = Math.floor(random() * 300);
    if (f.type === "text") answers[f.id] = "because";
    if (f.type === "checkbox") answers[f.id] = pick([["x"], ["x", "y"], ["z"]]);
  }
  return {
    name: `case ${k}`,
    answers,
    hidden: { src: pick(["ads", "mail"]) },
    expect: {
      ending: pick(["high", "mid", "rest"]),
      shown: [fields[0]!.id],
      hidden_fields: [fields[7]!.id],
      variables: { band: "mid" },
      valid: true,
    },
  };
});

runCases(form, tests.slice(0, 50)); // warm-up: the form's expressions parsed once (compiled.ts)
const runs: number[] = [];
let passed = 0;
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  const run = runCases(form, tests);
  runs.push(performance.now() - t);
  passed = run.passed;
}
runs.sort((a, b) => a - b);
const median = runs[2]!;
console.log(
  `formdown test core: ${cases.toLocaleString("en-US")} cases of a ${size}-field form in ${median.toFixed(0)} ms (median of 5; best ${runs[0]!.toFixed(0)} ms, worst ${runs[4]!.toFixed(0)} ms) · ${((median * 1000) / cases).toFixed(0)} µs a case · ${passed} passed · goal ≤ 1,000 ms`,
);
