// The submit writer's own cost, in this process (PGlite runs here too, so its CPU is counted):
// µs of CPU per response for the shapes a submit is written in — alone, 16 sharing one INSERT,
// counted with an email due, a test answer — against a bare prepared INSERT of the same row into
// the same table, in interleaved rounds of the same run (medians: on a loaded 2-core machine a
// single round moves by ±30 %). The end-to-end figure is bench/submit.ts's.
// Usage: npx node bench/submit-writer.ts [rounds] [rows per round]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { responseId } from "../functions/services/response-id.ts";
import { formSequence, type SubmitWrite } from "../functions/services/submit-sql.ts";
import { responseWriter } from "../functions/services/submit-write.ts";

const rounds = Number(process.argv[2] ?? 7);
const rows = Number(process.argv[3] ?? 400);
const db = wrapPglite(await openPglite(mkdtempSync(join(tmpdir(), "bench-writer-"))));
await migrate(db);
const [account] = await db.query<{ id: string }>(
  "insert into accounts (handler) values ('bench') returning id",
);
const [form] = await db.query<{ id: string }>(
  `insert into forms (account_id, slug, short_code, title, type, definition)
   values ($1, 'bench', 'BENCH', 'Bench', 'form', '{}'::jsonb) returning id`,
  [account!.id],
);
const formId = form!.id;
const sequence = formSequence(formId);
const payload = JSON.stringify({ name: "Ada Lovelace", score: 9, tags: ["a", "c"] });
const write = (extra: Partial<SubmitWrite> = {}, test = false): SubmitWrite => ({
  row: { id: responseId(), form_id: formId, payload, lang: "en", ...(test ? { test: true } : {}) },
  sequence,
  ...extra,
});
const alone = responseWriter(db, { parallel: Number.POSITIVE_INFINITY, maxBatch: 1 });
const shared = responseWriter(db, { parallel: 1, maxBatch: 16 });
const bare = `insert into responses (id, form_id, payload, lang, seq)
  values ($1::uuid, $2::uuid, $3::jsonb, $4::text, nextval($5::regclass)) returning id, seq`;
// an email due at every response: the counter, then the outbox row (milestones far away)
const outbox = { recipients: '["a@example.com"]', immediate: 1e9, milestones: [1e9] };

const shapes: Record<string, () => Promise<unknown>> = {
  "bare INSERT (baseline)": () =>
    db.query(bare, [responseId(), formId, payload, "en", sequence], { prepare: true }),
  alone: () => alone(write()),
  "16 sharing one INSERT": () => Promise.all(Array.from({ length: 16 }, () => shared(write()))),
  "counted, email due": () => alone(write({ outbox })),
  "test answer": () => alone(write({}, true)),
};
const per = (name: string) => (name.startsWith("16") ? 16 : 1);
const results: Record<string, number[]> = {};
for (let round = 0; round <= rounds; round++) {
  for (const [name, run] of Object.entries(shapes)) {
    const n = Math.ceil(rows / per(name));
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await run();
    const used = process.cpuUsage(cpu);
    // round 0 warms the statements and the JIT
    if (round === 0) continue;
    results[name] ??= [];
    results[name].push((used.user + used.system) / (n * per(name)));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(results["bare INSERT (baseline)"]!);
for (const [name, xs] of Object.entries(results)) {
  const m = median(xs);
  console.log(
    `${name.padEnd(24)} ${m.toFixed(0).padStart(5)} µs CPU a response (${(m / base).toFixed(2)}× the bare INSERT; rounds ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`,
  );
}
await db.close();
