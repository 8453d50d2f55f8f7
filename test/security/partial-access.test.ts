// Second review (docs/security-review.md): a password form that saves partial responses (SPEC
// §25) checked the password on `POST …/partial` without an anti-bot token, an oracle for guesses
// that SPEC §23 closes on every other path ("Access attempts cost an anti-bot token").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const PASSWORD = "open sesame";

describe.each(DB_KINDS)("partial saves of a password form (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const body = {
      title: "Survey",
      slug: "pw-partial",
      humanness: false,
      settings: { partial: true },
      fields: [
        { id: "a", type: "text", label: "First", step: 1 },
        { id: "b", type: "text", label: "Second", step: 2 },
      ],
    };
    expect((await api("POST", "/api/forms", { body })).status).toBe(201);
    const set = await api("PUT", "/api/forms/pw-partial/access", {
      body: { mode: "password", password: PASSWORD },
    });
    expect(set.status).toBe(200);
  });
  afterAll(() => s?.close());

  const save = (access: string, turnstile_token?: string) =>
    api("POST", "/api/forms/pw-partial/partial", {
      key: null,
      body: { fields: { a: "x" }, access, ...(turnstile_token ? { turnstile_token } : {}) },
    });

  it("tries a password only with an anti-bot token", async () => {
    for (const access of ["guess", PASSWORD]) {
      const res = await save(access);
      expect([res.status, res.body.code], access).toEqual([422, "captcha_failed"]);
    }
    const wrong = await save("guess", await solveAltcha(s.url));
    expect([wrong.status, wrong.body.code]).toEqual([403, "access_denied"]);
    const right = await save(PASSWORD, await solveAltcha(s.url));
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(typeof right.body.resume).toBe("string");
  });
});
