// SPEC §23 "A fuzz from the one declaration": every REST operation (read from the server's own
// GET /api/openapi.json) and every MCP tool (from tools/list) is called with arguments generated
// from its declared schema, hostile values mixed in. No answer is a 5xx other than 503, every 4xx
// says `{error, code}`, every tool call is a result or a JSON-RPC error, and the server is alive
// at the end. Seeded: a failure prints FUZZ_SEED, which replays the same cases.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/db.ts";
import { ADMIN_TOKEN, type FuzzServer, startFuzzServer } from "./fuzz-fixtures.ts";
import { hintsFor } from "./fuzz-hints.ts";
import { argumentsFor, call, connectClient, type Tool } from "./fuzz-mcp.ts";
import {
  type Answer,
  describeRequest,
  type Operation,
  operationsOf,
  problemOf,
  requestsFor,
  send,
} from "./fuzz-rest.ts";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/**
 * Cases per operation and per tool: a few hundred in all in `npm test`, five times that in CI;
 * FUZZ_RUNS sets it (a long hunt).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI ? 30 : 6));

/**
 * What the fuzz never sends, because it would end the fuzz itself: the id of the key in use, in
 * any path or tool argument (DELETE /api/keys/{id} would revoke it, and so would any later
 * operation on a key by id, such as a rotation). Other keys' ids are sent, and revoked. No
 * operation and no tool is skipped.
 */
const endsTheFuzz = (keyId: string, request: string) => request.includes(keyId);

/** A seed per operation or tool, so adding one does not change the others' cases. */
const seedOf = (name: string) =>
  [...name].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/** Counts of answers by kind, printed as `200×40, 400×120`: how deep the cases reached. */
class Tally {
  counts = new Map<string, number>();
  total = 0;
  add(kind: string) {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    this.total++;
  }
  toString() {
    return [...this.counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join(", ");
  }
}

describe.each(DB_KINDS)("generated fuzz of every operation and tool (%s)", (kind) => {
  // Postgres runs the same operations with fewer cases: PGlite is where the suite's time goes
  const runs = kind === "postgres" ? Math.ceil(RUNS / 2) : RUNS;
  const logged: string[] = [];
  let f: FuzzServer;
  let doc: Parameters<typeof operationsOf>[0];
  let ops: Operation[];
  beforeAll(async () => {
    f = await startFuzzServer(kind, logged);
    doc = await (await fetch(`${f.s.url}/api/openapi.json`)).json();
    ops = operationsOf(doc);
  });
  afterAll(() => f?.close());

  /** The server's own log lines since `from`: a 500's stack, to report it whole. */
  const logSince = (from: number) =>
    logged.length > from ? `\n    log: ${logged.slice(from).join("\n    ").slice(0, 2000)}` : "";

  it("reads its operations from the server's own OpenAPI document", () => {
    expect(ops.length).toBeGreaterThan(40);
    expect(ops.filter((o) => o.body).length).toBeGreaterThan(10);
  });

  it("answers every REST operation's generated requests with no 5xx but 503, each 4xx {error, code}", async () => {
    const failures: string[] = [];
    const statuses = new Tally();
    const keys = { key: f.s.apiKey, admin: ADMIN_TOKEN };
    for (const op of ops) {
      const requests = requestsFor(op, doc, hintsFor(f.pools, op.template));
      await fc.assert(
        fc.asyncProperty(requests, async (req) => {
          if (endsTheFuzz(f.keyId, req.path)) return;
          const from = logged.length;
          const answer = await send(f.s.url, keys, req).catch(
            (e: Error): Answer => ({ status: 0, text: `no answer: ${e.message}` }),
          );
          statuses.add(String(answer.status));
          const problem = answer.status === 0 ? answer.text : problemOf(answer);
          if (problem)
            failures.push(
              `${op.name}: ${problem}\n    ${describeRequest(req)}\n    → ${answer.text.slice(0, 300)}${logSince(from)}`,
            );
        }),
        { numRuns: runs, seed: seedOf(op.name) },
      );
      // what a fuzzed DELETE, rename or deploy took away is made again
      if (op.method !== "GET") await f.restore(op.method === "DELETE");
    }
    console.log(
      `REST fuzz (${kind}): ${ops.length} operations, ${statuses.total} cases (${statuses}), seed ${SEED}`,
    );
    expect(failures, `FUZZ_SEED=${SEED} replays these`).toEqual([]);
  }, 600_000);

  it("answers every MCP tool's generated arguments with a result or a JSON-RPC error", async () => {
    const client = await connectClient(f.s.url, f.s.apiKey);
    const { tools } = (await client.listTools()) as { tools: Tool[] };
    expect(tools.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const outcomes = new Tally();
    for (const tool of tools) {
      await fc.assert(
        fc.asyncProperty(argumentsFor(tool, hintsFor(f.pools)), async (args) => {
          if (endsTheFuzz(f.keyId, JSON.stringify(args))) return;
          const from = logged.length;
          const { outcome, problem } = await call(client, tool.name, args);
          outcomes.add(outcome);
          if (problem)
            failures.push(
              `${tool.name}: ${problem}\n    ${JSON.stringify(args).slice(0, 400)}${logSince(from)}`,
            );
        }),
        { numRuns: runs, seed: seedOf(tool.name) },
      );
      if (!tool.annotations?.readOnlyHint) await f.restore(tool.name.startsWith("delete"));
    }
    await client.close();
    console.log(
      `MCP fuzz (${kind}): ${tools.length} tools, ${outcomes.total} cases (${outcomes}), seed ${SEED}`,
    );
    expect(failures, `FUZZ_SEED=${SEED} replays these`).toEqual([]);
  }, 600_000);

  it("leaves the server alive and answering", async () => {
    const health = await fetch(`${f.s.url}/api/health`);
    expect(health.status).toBe(200);
  });
});
