// Eighth review, part C (2026-11-28): `POST /api/deploys` (any account's `write` key, 8 MB) parsed
// its files one after the other, and a file it refuses (invalid, or a slug other than its name)
// reaches no query before the next: 31 copies of a maximal valid form (370 variables of 333
// additions, 255 KB, 150 ms of parsing each; since refused by MAX_EXPRESSION_NODES, after the
// same parse) under names that do not match their slug held the event loop 7.4 s. The branch watcher read its committed files the same way (from memory, no
// turn between them: the same change there, not counted here, where git's own I/O turns the
// loop too). Each file now waits for a turn of the loop of its own (http/body.ts
// ownTurn); counted here in turns of the loop, not in milliseconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, accountForKey } from "../../functions/services/accounts.ts";
import { reconcile } from "../../functions/services/reconcile.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const FILES = 40;
/** A valid form file whose slug is not its name: refused without a query. */
const misnamed = (i: number) =>
  `---\ntitle: F${i}\nslug: elsewhere-${i}\nfields:\n  - {id: a, type: text, label: A}\n---\n`;

/** The turns of the event loop that passed while `call` ran. */
async function turnsDuring(call: () => Promise<unknown>): Promise<number> {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await call();
    return turn;
  } finally {
    ticking = false;
  }
}

describe.each(DB_KINDS)("a deploy of many files (%s)", (kind) => {
  let s: TestServer;
  let account: Account;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    account = (await accountForKey(s.ctx, s.apiKey))!;
  });
  afterAll(() => s?.close());

  it("parses each file in a turn of the event loop of its own", async () => {
    const files = Array.from({ length: FILES }, (_, i) => ({
      path: `forms/@me/f${i}.md`,
      text: misnamed(i),
      translations: {},
    }));
    let results: { result: string }[] = [];
    const turns = await turnsDuring(async () => {
      ({ results } = await reconcile(s.ctx, account, {
        repository: "example.org/forms",
        commit: null,
        files,
        renames: [],
        complete: false,
        dryRun: true,
      }));
    });
    expect(results.map((r) => r.result)).toEqual(Array(FILES).fill("invalid"));
    expect(turns).toBeGreaterThanOrEqual(FILES);
    // and over REST, with the reason named
    const res = await client(s.url, s.apiKey)("POST", "/api/deploys", {
      body: {
        repository: "example.org/forms",
        commit: null,
        files: [{ path: "forms/@me/f1.md", markdown: misnamed(1) }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      result: "invalid",
      reason: `forms/@me/f1.md: the file's slug "elsewhere-1" must match its name "f1"`,
    });
  });
});
