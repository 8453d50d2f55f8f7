import postgres from "postgres";
import { copyMarkdownStatement } from "../functions/insights/copy-markdown.ts";
import { copyCsvStatement } from "../functions/insights/copy-csv.ts";
const sql = postgres("postgres://postgres@127.0.0.1:5432/exp_scratch", { max: 1, onnotice: () => {} });
const cols = [{path:["name"],header:"name",list:false},{path:["score"],header:"score",list:false},{path:["tags"],header:"tags",list:true}] as never;
const W = "from responses where form_id = 'b8951c97-b963-4e52-a257-01449aa91bf3' and not test order by submitted_at desc, id desc";
const variants: Record<string, string> = {
  raw: `copy (select id, submitted_at, payload->>'name', payload->>'score', payload->'tags' ${W}) to stdout with csv header`,
  csv: copyCsvStatement("b8951c97-b963-4e52-a257-01449aa91bf3", cols, {since:null,until:null} as never, false),
  md: copyMarkdownStatement("b8951c97-b963-4e52-a257-01449aa91bf3", cols, {since:null,until:null} as never, false),
};
const best: Record<string, number> = {};
for (let r = 0; r < 3; r++)
  for (const [k, q] of Object.entries(variants)) {
    const t = performance.now();
    const s = await sql.unsafe(q).readable();
    for await (const _ of s) void _;
    best[k] = Math.min(best[k] ?? Infinity, performance.now() - t);
  }
for (const [k, v] of Object.entries(best)) console.log(k.padEnd(20), v.toFixed(0), (best.raw! / v).toFixed(2));
await sql.end();
