// Deterministic answers to the example survey (test/fixtures/forms/product-survey.md) and the
// counts a report of them must show, worked out here independently of the server's code.
import { readFileSync } from "node:fs";
import { parseFormFile } from "../../src/core/form-file.ts";
import type { client } from "../helpers/api.ts";

export const survey = () => {
  const text = readFileSync(
    new URL("../fixtures/forms/product-survey.md", import.meta.url),
    "utf8",
  );
  const parsed = parseFormFile(text, "product-survey.md");
  if (!parsed.ok) throw new Error("fixture does not parse");
  return { ...parsed.form, humanness: false, notifications: { email: [] } };
};

const FEATURES = ["Forms", "Surveys", "Quizzes"];
const COLUMNS = ["Poor", "Fair", "Good", "Excellent"];
const PRIORITIES = ["Price", "Reliability", "Integrations", "Support"];
const ROLES = ["Engineering", "Product", "Design", "Research", "Other"];

export function answersFor(i: number): Record<string, unknown> {
  const recommend = i % 11;
  const features = FEATURES.filter((_, b) => ((i % 7) + 1) & (1 << b));
  const a: Record<string, unknown> = {
    recommend,
    ease: 1 + ((i * 3) % 7),
    features,
    aspects: {
      speed: COLUMNS[i % 4],
      design: COLUMNS[(i + 1) % 4],
      ...(i % 3 ? {} : { docs: COLUMNS[3] }),
    },
    priorities: [...PRIORITIES.slice(i % 4), ...PRIORITIES.slice(0, i % 4)],
    role: ROLES[i % 5],
  };
  if (i % 7 !== 0) a.satisfaction = 1 + (i % 5);
  if (recommend <= 6 && i % 2 === 0)
    a.disappointed = `Answer ${i}: <img src=x onerror=alert(1)> & more`;
  if (features.includes("Quizzes") && i % 3 === 0) a.quiz_feedback = `Quiz idea ${i}`;
  return a;
}

export const RESPONSES = 36;
/** Respondents who left: the furthest field each reached. */
export const LEFT = ["recommend", "recommend", "satisfaction", "features", "features", "role"];

export async function seedSurvey(api: ReturnType<typeof client>, slug = "product-survey") {
  for (let i = 0; i < RESPONSES; i++) {
    const res = await api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields: answersFor(i), seconds: 40 + i * 5 },
    });
    if (res.status !== 201) throw new Error(`submit ${i}: ${JSON.stringify(res.body)}`);
  }
  // the page reports each question a respondent reaches, in form order: the submitters' pages
  // reported the first one (their other answers came through the API alone), and each respondent
  // who left reported every question up to the furthest
  const order = survey()
    .fields.filter((f) => f.type !== "statement")
    .map((f) => f.id);
  const beacons = [
    ...Array<string>(RESPONSES).fill(order[0]!),
    ...LEFT.flatMap((furthest) => order.slice(0, order.indexOf(furthest) + 1)),
  ];
  for (const field of beacons) {
    const res = await api("POST", `/api/forms/${slug}/events`, {
      key: null,
      body: { type: "progress", field },
    });
    if (res.status !== 204) throw new Error(`progress: ${JSON.stringify(res.body)}`);
  }
}

/** Count of each value of a single-choice or list answer over the seeded responses. */
export function countOf(field: string, value: unknown): number {
  let n = 0;
  for (let i = 0; i < RESPONSES; i++) {
    const a = answersFor(i)[field];
    if (Array.isArray(a) ? a.includes(value) : a === value) n++;
  }
  return n;
}

export function answeredCount(field: string): number {
  let n = 0;
  for (let i = 0; i < RESPONSES; i++) if (answersFor(i)[field] !== undefined) n++;
  return n;
}
