// The two lists of responses (SPEC §6) through the app's own fetch: no server, no socket.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb } from "../../test/helpers/db.ts";
import { createApp } from "../app.ts";
import { createContext } from "../compose.ts";
import type { AppContext } from "../context.ts";
import { accountByHandler, createAccount } from "../services/accounts.ts";
import { createForm } from "../services/forms.ts";
import { submit } from "../services/submit.ts";

describe("the lists of responses, through the app's fetch", () => {
  let ctx: AppContext;
  let app: ReturnType<typeof createApp>;
  let key: string;
  let drop: () => Promise<void>;
  const get = async (path: string) => {
    const res = await app.fetch(
      new Request(`http://formdown.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
    );
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    const fresh = await freshDb("pglite");
    drop = fresh.drop;
    const dir = await mkdtemp(join(tmpdir(), "formdown-routes-"));
    ctx = await createContext(
      { FORMDOWN_DATA_DIR: dir, FORMDOWN_REPO_DIR: dir, FORMDOWN_RATE_SUBMIT: "0" },
      { db: fresh.db, log: { info() {}, error() {} } },
    );
    app = createApp(ctx);
    key = (await createAccount(ctx, { handler: "lists" })).api_key;
    const form = { title: "L", slug: "l", humanness: false, fields: [{ id: "n", type: "number" }] };
    await createForm(ctx, (await accountByHandler(ctx, "lists"))!, form, { commit: false });
    for (let n = 1; n <= 5; n++)
      await submit(ctx, "l", { body: { fields: { n } }, ip: undefined, idempotencyKey: undefined });
  });
  afterAll(() => drop?.());

  it("pages variant A by page and limit, newest first", async () => {
    const { status, body } = await get("/api/forms/l/responses?page=2&limit=2");
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(body.responses.map((r: { payload: { n: number } }) => r.payload.n)).toEqual([3, 2]);
  });

  it("pages variant B by limit and offset, the same rows", async () => {
    const { status, body } = await get("/api/forms/l/submissions?limit=2&offset=2");
    expect(status).toBe(200);
    expect(body).toMatchObject({ limit: 2, offset: 2, total: 5 });
    expect(body.submissions.map((r: { payload: { n: number } }) => r.payload.n)).toEqual([3, 2]);
  });

  it("refuses a limit out of its bounds with {error, code}", async () => {
    const { status, body } = await get("/api/forms/l/submissions?limit=101");
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});
