import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import {
  getRecord,
  includeTest,
  listRecords,
  parseInstant,
  parseInteger,
} from "../services/responses.ts";

/** Variant A (`responses`, page/limit 50/200) and variant B (`submissions`, limit/offset 25/100). */
export function responseRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  const range = (q: (k: string) => string | undefined) => ({
    since: parseInstant("since", q("since")),
    until: parseInstant("until", q("until")),
  });

  app.get("/api/forms/:slug/responses", key, async (c) => {
    const q = (k: string) => c.req.query(k);
    const page = parseInteger("page", q("page"), 1, 1, 1_000_000);
    const limit = parseInteger("limit", q("limit"), 50, 1, 200);
    const r = range(q);
    const { records, total } = await listRecords(
      ctx,
      c.get("account"),
      c.req.param("slug"),
      r,
      limit,
      (page - 1) * limit,
      includeTest(q("include_test"), "include_test"),
      q("where"),
    );
    return c.json({ responses: records, page, limit, total });
  });
  app.get("/api/forms/:slug/submissions", key, async (c) => {
    const q = (k: string) => c.req.query(k);
    const limit = parseInteger("limit", q("limit"), 25, 1, 100);
    const offset = parseInteger("offset", q("offset"), 0, 0, 100_000_000);
    const r = range(q);
    const { records, total } = await listRecords(
      ctx,
      c.get("account"),
      c.req.param("slug"),
      r,
      limit,
      offset,
      includeTest(q("include_test"), "include_test"),
      q("where"),
    );
    return c.json({ submissions: records, limit, offset, total });
  });
  for (const name of ["responses", "submissions"]) {
    app.get(`/api/forms/:slug/${name}/:id{[0-9a-fA-F-]{36}}`, key, async (c) =>
      c.json(await getRecord(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"))),
    );
  }
}
