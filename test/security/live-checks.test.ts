// SPEC §23 "Checks come from the live form": a submit answered against an earlier version (the
// §16 grace) is validated against that version's fields, but anti-bot, caps, `closes_at`, access
// and status are always the live form's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a submit against an earlier version (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A form at version 1 (no anti-bot check), then changed by `patch` to version 2. */
  const twoVersions = async (slug: string, patch: object) => {
    api = client(s.url, s.apiKey);
    const body = {
      title: slug,
      slug,
      humanness: false,
      fields: [{ id: "x", type: "text", label: "X" }],
    };
    expect((await api("POST", "/api/forms", { body })).status).toBe(201);
    const changed = await api("PATCH", `/api/forms/${slug}`, { body: patch });
    expect(changed.status).toBe(200);
    expect((await api("GET", `/api/forms/${slug}`)).body.version).toBe(2);
  };
  const post = (slug: string, body: object) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body });
  const count = async (slug: string) =>
    (await api("GET", `/api/forms/${slug}`)).body.stats.responses as number;

  it("asks the live form's anti-bot token, whatever version the answers name", async () => {
    await twoVersions("lc-bot", { humanness: true });
    const old = await post("lc-bot", { version: 1, fields: { x: "1" } });
    expect([old.status, old.body.code]).toEqual([422, "captcha_failed"]);
    const live = await post("lc-bot", { fields: { x: "1" } });
    expect(live.body.code).toBe("captcha_failed");
    expect(await count("lc-bot")).toBe(0);
    // with a token the old version's answers are taken, validated against version 1
    const token = await solveAltcha(s.url);
    const ok = await post("lc-bot", { version: 1, fields: { x: "1" }, turnstile_token: token });
    expect(ok.status).toBe(201);
    expect(await count("lc-bot")).toBe(1);
  });

  it("keeps the live form's max_responses, whatever version the answers name", async () => {
    await twoVersions("lc-cap", { settings: { max_responses: 1 } });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await post("lc-cap", { version: 1, fields: { x: `${i}` } }));
    expect(answers.map((a) => a.status)).toEqual([201, 403, 403]);
    expect(answers[1]!.body.code).toBe("form_closed");
    expect(await count("lc-cap")).toBe(1);
  });

  it("keeps the live form's closes_at, whatever version the answers name", async () => {
    await twoVersions("lc-late", { settings: { closes_at: "2020-01-01T00:00:00Z" } });
    const old = await post("lc-late", { version: 1, fields: { x: "1" } });
    expect([old.status, old.body.code]).toEqual([403, "form_closed"]);
    expect(await count("lc-late")).toBe(0);
  });

  it("validates the answers against the version they name", async () => {
    await twoVersions("lc-fields", {
      fields: [{ id: "y", type: "number", label: "Y", required: true }],
    });
    // `x` is version 1's question; version 2 asks `y` alone
    const old = await post("lc-fields", { version: 1, fields: { x: "kept" } });
    expect(old.status).toBe(201);
    const live = await post("lc-fields", { fields: { x: "kept" } });
    expect(live.status).toBe(400);
  });
});
