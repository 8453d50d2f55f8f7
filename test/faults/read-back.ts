// Reads every response of a form back through every read path a user has: the two list
// variants, the three export formats and the stats. A fault suite compares each against the
// submits that were acknowledged (201).
import { parse } from "csv-parse/sync";

export interface ReadBack {
  responses: Set<string>;
  submissions: Set<string>;
  csv: Set<string>;
  json: Set<string>;
  markdown: Set<string>;
  /** `total` of the responses list, and `responses` of the stats. */
  listTotal: number;
  stats: number;
}

async function get(base: string, key: string, path: string): Promise<Response> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res;
}

export async function readBack(base: string, key: string, slug: string): Promise<ReadBack> {
  const path = `/api/forms/${slug}`;
  const responses = new Set<string>();
  let listTotal = 0;
  for (let page = 1; ; page++) {
    const body = (await (
      await get(base, key, `${path}/responses?limit=200&page=${page}`)
    ).json()) as {
      responses: { id: string }[];
      total: number;
    };
    listTotal = body.total;
    for (const r of body.responses) responses.add(r.id);
    if (body.responses.length < 200) break;
  }
  const submissions = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const body = (await (
      await get(base, key, `${path}/submissions?limit=100&offset=${offset}`)
    ).json()) as { submissions: { id: string }[] };
    for (const r of body.submissions) submissions.add(r.id);
    if (body.submissions.length < 100) break;
  }
  const csvText = await (await get(base, key, `${path}/responses/export?format=csv`)).text();
  const csv = new Set((parse(csvText, { columns: true }) as { id: string }[]).map((r) => r.id));
  const jsonRows = (await (
    await get(base, key, `${path}/responses/export?format=json`)
  ).json()) as { id: string }[];
  const json = new Set(jsonRows.map((r) => r.id));
  const md = await (await get(base, key, `${path}/responses/export?format=markdown`)).text();
  const markdown = new Set(
    md
      .split("\n")
      .slice(2)
      .flatMap((line) => /^\| ([0-9a-f-]{36}) \|/.exec(line)?.[1] ?? []),
  );
  const stats = ((await (await get(base, key, `${path}/stats`)).json()) as { responses: number })
    .responses;
  return { responses, submissions, csv, json, markdown, listTotal, stats };
}

/** The acknowledged ids a read path does not have. */
export const missingFrom = (acknowledged: string[], found: Set<string>) =>
  acknowledged.filter((id) => !found.has(id));
