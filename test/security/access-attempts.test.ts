// SPEC §23 "Access attempts cost an anti-bot token" on every path (`/public`, the page, submit,
// upload), and failures are counted per client (an IPv6 one by /64) and per form, so that an
// anonymous stranger cannot lock out a respondent who solved the anti-bot check and knows the
// password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { freshWindow } from "../helpers/windows.ts";

const PASSWORD = "open sesame";

describe.each(DB_KINDS)("access attempts (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const links: Record<string, string> = {};
  beforeAll(async () => {
    // three failures a minute per client; the client is the address its one proxy saw
    s = await startTestServer({
      db: kind,
      env: { FORMDOWN_RATE_ACCESS: "3", FORMDOWN_TRUSTED_PROXIES: "1" },
    });
    api = client(s.url, s.apiKey);
    for (const [slug, access] of [
      ["aa-public", { mode: "password", password: PASSWORD }],
      ["aa-page", { mode: "password", password: PASSWORD }],
      ["aa-submit", { mode: "password", password: PASSWORD }],
      ["aa-lock", { mode: "password", password: PASSWORD }],
      ["aa-v6", { mode: "link" }],
      ["aa-crowd", { mode: "link" }],
    ] as const) {
      // no anti-bot check asked by the form: a password costs a token all the same
      const body = {
        title: slug,
        slug,
        humanness: false,
        fields: [{ id: "x", type: "text", label: "Secret question" }],
      };
      expect((await api("POST", "/api/forms", { body })).status).toBe(201);
      const set = await api("PUT", `/api/forms/${slug}/access`, { body: access });
      expect(set.status).toBe(200);
      if (set.body.access_token) links[slug] = set.body.access_token;
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const from = (ip: string) => ({ "x-forwarded-for": ip });
  const token = () => solveAltcha(s.url);
  /** GET /public with a password or link token, from `ip`, with an anti-bot token if given. */
  const unlock = (slug: string, access: string, ip: string, antibot?: string) =>
    api("GET", `/api/forms/${slug}/public?access=${encodeURIComponent(access)}`, {
      key: null,
      headers: { ...from(ip), ...(antibot ? { "x-formdown-antibot": antibot } : {}) },
    });

  it("tries a password on /public only with an anti-bot token", async () => {
    for (const access of ["guess", PASSWORD]) {
      const res = await unlock("aa-public", access, "192.0.2.1");
      expect([res.status, res.body.code]).toEqual([422, "captcha_failed"]);
      expect(JSON.stringify(res.body)).not.toContain("Secret question");
    }
    const denied = await unlock("aa-public", "guess", "192.0.2.1", await token());
    expect([denied.status, denied.body.code]).toEqual([403, "access_denied"]);
    const ok = await unlock("aa-public", PASSWORD, "192.0.2.1", await token());
    expect(ok.status).toBe(200);
    expect(ok.body.form.fields[0].label).toBe("Secret question");
    // a spent token is no token
    const again = await token();
    expect((await unlock("aa-public", PASSWORD, "192.0.2.1", again)).status).toBe(200);
    expect((await unlock("aa-public", PASSWORD, "192.0.2.1", again)).body.code).toBe(
      "captcha_failed",
    );
  });

  it("shows a password form's page only to a password sent with an anti-bot token", async () => {
    const page = (headers: Record<string, string>) =>
      fetch(`${s.url}/@${s.handler}/aa-page`, {
        headers: { ...from("192.0.2.2"), "x-formdown-access": PASSWORD, ...headers },
      }).then((res) => res.text());
    expect(await page({})).not.toContain("Secret question");
    expect(await page({ "x-formdown-antibot": "forged" })).not.toContain("Secret question");
    expect(await page({ "x-formdown-antibot": await token() })).toContain("Secret question");
  });

  it("takes a password form's submit only with an anti-bot token, whatever the form asks", async () => {
    const post = (body: object) =>
      api("POST", "/api/forms/aa-submit/submit", { key: null, body, headers: from("192.0.2.3") });
    const bare = await post({ fields: { x: "1" }, access: PASSWORD });
    expect([bare.status, bare.body.code]).toEqual([422, "captcha_failed"]);
    const ok = await post({ fields: { x: "1" }, access: PASSWORD, turnstile_token: await token() });
    expect(ok.status).toBe(201);
  });

  it("locks out the stranger who guesses, not the respondent who knows the password", async () => {
    await freshWindow(); // the limits count in whole minutes: all of it in one
    for (let i = 0; i < 3; i++) {
      const res = await unlock("aa-lock", `guess-${i}`, "203.0.113.66", await token());
      expect([res.status, res.body.code]).toEqual([403, "access_denied"]);
    }
    // the stranger is refused now, the right password too (no oracle in the refusal)
    const stranger = await unlock("aa-lock", PASSWORD, "203.0.113.66", await token());
    expect([stranger.status, stranger.body.code]).toEqual([429, "rate_limited"]);
    // a respondent elsewhere still gets in, on /public and on submit
    const respondent = await unlock("aa-lock", PASSWORD, "198.51.100.7", await token());
    expect(respondent.status).toBe(200);
    const submitted = await api("POST", "/api/forms/aa-lock/submit", {
      key: null,
      headers: from("198.51.100.7"),
      body: { fields: { x: "1" }, access: PASSWORD, turnstile_token: await token() },
    });
    expect(submitted.status).toBe(201);
  });

  it("counts an IPv6 client's failures by its /64", async () => {
    await freshWindow(); // the limits count in whole minutes: all of it in one
    for (let i = 1; i <= 3; i++)
      expect((await unlock("aa-v6", "wrong", `2001:db8:1:2::${i}`)).status).toBe(403);
    // another address of the same network is the same client
    const same = await unlock("aa-v6", links["aa-v6"]!, "2001:db8:1:2:ffff::9");
    expect([same.status, same.body.code]).toEqual([429, "rate_limited"]);
    // another network is not
    expect((await unlock("aa-v6", links["aa-v6"]!, "2001:db8:1:3::1")).status).toBe(200);
  });

  it("gives each client one failure a minute once the form has many, and still lets the right one in", async () => {
    await freshWindow(); // the limits count in whole minutes: all of it in one
    // ten times the client's limit, from thirty addresses
    for (let i = 1; i <= 30; i++)
      expect((await unlock("aa-crowd", "wrong", `203.0.114.${i}`)).status).toBe(403);
    // one that failed already waits, even with the right token
    const failed = await unlock("aa-crowd", links["aa-crowd"]!, "203.0.114.1");
    expect([failed.status, failed.body.code]).toEqual([429, "rate_limited"]);
    // a new client gets one try: the right token opens the form, a wrong one is its last
    expect((await unlock("aa-crowd", links["aa-crowd"]!, "198.51.100.20")).status).toBe(200);
    expect((await unlock("aa-crowd", "wrong", "198.51.100.21")).status).toBe(403);
    expect((await unlock("aa-crowd", links["aa-crowd"]!, "198.51.100.21")).status).toBe(429);
  });
});
