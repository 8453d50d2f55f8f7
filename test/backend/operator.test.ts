// SPEC §22 "Operator hygiene": health names the version and instance, its detail is a key
// holder's, and a webhook key other than the one the database's secrets were sealed with is
// named by `formdown doctor` as a failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("operator hygiene (SPEC §22) on %s", (db) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db, env: { FORMDOWN_WEBHOOK_KEY: "the first key" } });
  });
  afterAll(() => s?.close());

  const health = (key?: string) =>
    fetch(`${s.url}/api/health?detail=1`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
    }).then((r) => r.json());

  it("names the version and the instance, and gives its detail only to a key", async () => {
    const open = await health();
    expect(open).toMatchObject({
      ok: true,
      version: expect.any(String),
      instance: expect.any(String),
    });
    expect(open.overdue).toBeUndefined();
    expect((await health("not-a-key")).warnings).toBeUndefined();
    const detail = await health(s.apiKey);
    expect(detail).toMatchObject({ overdue: { emails: 0, deliveries: 0 }, errors: [] });
  });

  it("fails doctor on a webhook key other than the database's, naming both fingerprints", async () => {
    await health(s.apiKey); // the key in use is kept on first use
    await s.ctx.db.query("update server_secrets set value = $1 where name = $2", [
      "0123456789abcdef",
      "webhook_key_fingerprint",
    ]);
    const detail = await health(s.apiKey);
    expect(detail.errors).toHaveLength(1);
    expect(detail.errors[0]).toMatch(/fingerprint 0123456789abcdef/);
    const doctor = await runFormdown(["doctor"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
    });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /✗ webhook key: FORMDOWN_WEBHOOK_KEY \(fingerprint [0-9a-f]{16}\) is not the key/,
    );
  });
});
