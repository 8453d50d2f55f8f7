// SPEC §23 "The CLI prints data, not terminal commands": an answer holding terminal escapes
// (clear the screen, retitle the window, a carriage return hiding what came before, a C1 CSI)
// reaches `formdown outbox`, `responses`, `report` and `stats` shown escaped, never raw.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HOSTILE = "Ann\x1b[2J\x1b]0;pwned\x07\rBob\x9b31m";
// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach a terminal
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe.each(DB_KINDS)("the CLI shows control characters escaped (%s)", (kind) => {
  let s: TestServer;
  let home: string;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    home = await mkdtemp(join(tmpdir(), "formdown-home-"));
    const api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Esc",
        slug: "esc",
        humanness: false,
        notifications: { email: ["owner@example.com"], subject: "New: {field:name}" },
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "pick", type: "radio", options: ["a", "b"] },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await api("POST", "/api/forms/esc/submit", {
      key: null,
      body: { fields: { name: HOSTILE, pick: "a" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await drainOutbox(s.ctx, 10);
  });
  afterAll(async () => {
    await s?.close();
  });

  const formdown = (...args: string[]) =>
    runFormdown(args, {
      env: {
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        FORMDOWN_URL: s.url,
        FORMDOWN_API_KEY: s.apiKey,
      },
    });

  it("prints no raw control character from the answers in outbox, responses and report", async () => {
    const runs = await Promise.all([
      formdown("outbox"),
      formdown("responses", "esc"),
      formdown("report", "esc", "--period", "all"),
      formdown("submissions", "esc"),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.replaceAll("\r\n", "\n")).not.toMatch(RAW);
    }
    const [outbox, responses] = runs;
    expect(outbox!.stdout).toContain("New: Ann");
    expect(JSON.parse(responses!.stdout)[0].payload.name).toBe(HOSTILE);
  });

  it("prints a server's error message escaped too", async () => {
    // the message quotes the value as JSON, which leaves a C1 control (CSI) as it is
    const run = await formdown("responses", "esc", "--where", "pick=x\x9b2J");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("x\\x9b2J");
    expect(run.stderr).not.toMatch(RAW);
  });
});
