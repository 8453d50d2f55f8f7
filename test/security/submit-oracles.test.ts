// SPEC §19 "Idempotency keys are bound to their request" and "Secrets before oracles": a reused
// key never hands out another respondent's result, and a password is tried only by a request
// that passed the anti-bot check, a limited number of times per client and form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("submit oracles (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind, env: { FORMDOWN_RATE_ACCESS: "3" } });
    api = client(s.url, s.apiKey);
    const quiz = {
      title: "Quiz",
      slug: "idem-quiz",
      type: "quiz",
      humanness: false,
      fields: [{ id: "q", type: "radio", label: "Q", options: ["a", "b"], answer: "b" }],
    };
    expect((await api("POST", "/api/forms", { body: quiz })).status).toBe(201);
    for (const [slug, humanness] of [
      ["pw-bot", true],
      ["pw-open", false],
      ["pw-other", false],
    ] as const) {
      const body = {
        title: slug,
        slug,
        humanness,
        fields: [{ id: "x", type: "text", label: "X" }],
      };
      expect((await api("POST", "/api/forms", { body })).status).toBe(201);
      const access = { mode: "password", password: "open sesame" };
      expect((await api("PUT", `/api/forms/${slug}/access`, { body: access })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = (slug: string, body: object, headers: Record<string, string> = {}) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body, headers });
  const count = async (slug: string) =>
    (await api("GET", `/api/forms/${slug}`)).body.stats.responses as number;

  it("answers 422 idempotency_mismatch to a reused key with other answers, never the first result", async () => {
    const key = { "idempotency-key": "k-quiz-1" };
    const first = await post("idem-quiz", { fields: { q: "b" } }, key);
    expect(first.status).toBe(201);
    expect(first.body.score.percent).toBe(100);
    const other = await post("idem-quiz", { fields: { q: "a" } }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("idempotency_mismatch");
    expect(JSON.stringify(other.body)).not.toContain(first.body.response_id);
    expect(other.body.score).toBeUndefined();
    const retry = await post("idem-quiz", { fields: { q: "b" } }, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await count("idem-quiz")).toBe(1);
  });

  it("stores one response when one key races with two different bodies", async () => {
    const key = { "idempotency-key": "k-race" };
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post("idem-quiz", { fields: { q: i % 2 ? "a" : "b" } }, key),
      ),
    );
    const ok = all.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.response_id)).size).toBe(1);
    const bad = all.filter((r) => r.status === 422);
    expect(bad.every((r) => r.body.code === "idempotency_mismatch")).toBe(true);
    expect(ok.length + bad.length).toBe(8);
    // the winners all sent the same answers: they all get the same score
    expect(new Set(ok.map((r) => r.body.score.percent)).size).toBe(1);
    expect(await count("idem-quiz")).toBe(2);
  });

  it("checks the anti-bot token before the password: no password oracle without a proof of work", async () => {
    const wrong = await post("pw-bot", { fields: { x: "1" }, access: "guess" });
    const right = await post("pw-bot", { fields: { x: "1" }, access: "open sesame" });
    expect([wrong.status, wrong.body.code]).toEqual([422, "captcha_failed"]);
    expect([right.status, right.body.code]).toEqual([422, "captcha_failed"]);
    const token = () => solveAltcha(s.url);
    const denied = await post("pw-bot", {
      fields: { x: "1" },
      access: "guess",
      turnstile_token: await token(),
    });
    expect([denied.status, denied.body.code]).toEqual([403, "access_denied"]);
    const ok = await post("pw-bot", {
      fields: { x: "1" },
      access: "open sesame",
      turnstile_token: await token(),
    });
    expect(ok.status).toBe(201);
  });

  it("limits a client's failed password attempts on a form", async () => {
    // the server trusts no proxy here: every request is the same client, whatever it forwards
    const token = () => solveAltcha(s.url);
    for (let i = 0; i < 3; i++) {
      const res = await post(
        "pw-open",
        { fields: { x: "1" }, access: `guess-${i}`, turnstile_token: await token() },
        { "x-forwarded-for": `203.0.113.${i + 1}` },
      );
      expect([res.status, res.body.code]).toEqual([403, "access_denied"]);
    }
    // now the client's every attempt on the form is refused, the right password too (no oracle
    // in the refusal); test/security/access-attempts.test.ts: other clients still get in
    const limited = await post(
      "pw-open",
      { fields: { x: "1" }, access: "open sesame", turnstile_token: await token() },
      { "x-forwarded-for": "198.51.100.7" },
    );
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await count("pw-open")).toBe(0);
    // another form is not affected
    const other = await post("pw-other", {
      fields: { x: "1" },
      access: "open sesame",
      turnstile_token: await token(),
    });
    expect(other.status).toBe(201);
  });
});
