import type { Context, Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { json, none, OWNER, query, REFUSED } from "../contracts/common.ts";
import {
  deleted,
  deleteQuery,
  offsetQuery,
  pageQuery,
  record,
  responsesPage,
  submissionsPage,
} from "../contracts/responses.ts";
import { deleteResponse, deleteResponses } from "../services/delete-responses.ts";
import { deleteTestResponses } from "../services/drafts.ts";
import { getRecord, type ListQuery, listRecords } from "../services/responses.ts";
import { answer, keyed, nothing } from "./operation.ts";

/**
 * Variant A (`responses`, page/limit 50/200) and variant B (`submissions`, limit/offset 25/100):
 * reading them, one by id, and deleting them (SPEC §6, §12).
 */
export function responseRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  const list = (c: Context<Env>, q: ListQuery) =>
    listRecords(ctx, c.get("account"), c.req.param("slug")!, q);
  app.get(
    "/api/forms/:slug/responses",
    op("listResponses", "Responses (variant A)", { 200: json(responsesPage), ...REFUSED }),
    query(pageQuery),
    async (c) => {
      const q = c.req.valid("query");
      const { records, total } = await list(c, q);
      return c.json({ responses: records, page: q.page, limit: q.limit, total });
    },
  );
  app.get(
    "/api/forms/:slug/submissions",
    op("listSubmissions", "Submissions (variant B)", { 200: json(submissionsPage), ...REFUSED }),
    query(offsetQuery),
    async (c) => {
      const q = c.req.valid("query");
      const { records, total } = await list(c, q);
      return c.json({ submissions: records, limit: q.limit, offset: q.offset, total });
    },
  );
  for (const [name, one, Name] of [
    ["responses", "response", "Response"],
    ["submissions", "submission", "Submission"],
  ] as const) {
    app.get(
      `/api/forms/:slug/${name}/:id{[0-9a-fA-F-]{36}}`,
      op(`get${Name}`, `One ${one}`, { 200: json(record), ...OWNER }),
      answer((account, slug, c) => getRecord(ctx, account, slug, c.req.param("id")!)),
    );
    app.delete(
      `/api/forms/:slug/${name}/:id`,
      op(`delete${Name}`, `Delete one ${one}, its uploads and pending emails`, {
        204: none("Deleted"),
        ...OWNER,
      }),
      nothing((account, slug, c) => deleteResponse(ctx, account, slug, c.req.param("id")!)),
    );
    app.delete(
      `/api/forms/:slug/${name}`,
      op(
        `delete${Name}s`,
        `Delete the ${one}s in a time range and/or matching where (at least one of since/until/where), or every test answer (test=true)`,
        { 200: json(deleted), ...REFUSED },
        {
          description:
            "Each erased response takes its uploads and unsent emails with it, and response.deleted webhooks are told. With where, test answers only with include_test=true (as the list shows them).",
        },
      ),
      query(deleteQuery),
      async (c) => {
        const { test, since, until, where, include_test } = c.req.valid("query");
        const [account, slug] = [c.get("account"), c.req.param("slug")];
        // `?test=true`: the test answers alone (SPEC §16), whatever their time
        if (test) return c.json(await deleteTestResponses(ctx, account, slug));
        // `?where=`: the responses that meet the filter (SPEC §18), as the list shows them
        const range = { since, until };
        return c.json(await deleteResponses(ctx, account, slug, range, where, include_test));
      },
    );
  }
}
