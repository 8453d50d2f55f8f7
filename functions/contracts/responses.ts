// Responses and submissions (SPEC §6, §12), their exports, stats and reports, and the outbox.
import { z } from "zod";
import { flag, limit, offset, range, reads, whole } from "./common.ts";

const str = z.string();
const int = z.int();
const num = z.number();

export const record = z.object({
  id: str,
  submitted_at: str,
  version: int.describe("The form version it was answered against").optional(),
  lang: str.describe("The language the respondent read (SPEC §20)").optional(),
  payload: z.looseObject({}),
  score: z.unknown().optional(),
  test: z.literal(true).optional(),
  status: z.literal("partial").describe("An unfinished partial response (SPEC §25)").optional(),
  invite: z
    .object({ token: str, email: str.optional() })
    .describe("The personal link it was answered with (SPEC §25)")
    .optional(),
  ending: str.describe("The ending its path reached (SPEC §24)").optional(),
  variables: z.looseObject({}).describe("The variables' values (SPEC §24)").optional(),
});

/** Which responses (SPEC §25): the completed ones, unfinished partials, or both. */
const status = z
  .enum(["complete", "partial", "all"], { error: "must be complete, partial or all" })
  .default("complete")
  .describe("complete (default), partial (unfinished partial responses) or all");
/** Variant A (`responses`): page/limit, 50 of at most 200. */
export const pageQuery = {
  page: whole(1, 1_000_000, 1),
  limit: limit(),
  ...range,
  ...reads,
  status,
};
export const responsesPage = z.object({
  responses: z.array(record),
  page: int,
  limit: int,
  total: int,
});
/** Variant B (`submissions`): limit/offset, 25 of at most 100. */
export const offsetQuery = { limit: limit(100, 25), offset, ...range, ...reads, status };
export const submissionsPage = z.object({
  submissions: z.array(record),
  limit: int,
  offset: int,
  total: int,
});

export const deleteQuery = {
  ...range,
  ...reads,
  test: flag("true: delete the form's test answers alone (SPEC §16), whatever their time"),
};
export const deleted = z.object({ deleted: int });

export const exportQuery = {
  format: z
    .enum(["csv", "json", "markdown", "xlsx"], { error: "must be csv, json, markdown or xlsx" })
    .default("csv")
    .describe("xlsx: one sheet, the questions' labels as headers, numbers and dates typed"),
  header: z
    .enum(["ids", "labels"], { error: "must be ids or labels" })
    .default("ids")
    .describe("labels: the questions' labels as the header row (CSV, Markdown)"),
  bom: flag("true: a UTF-8 byte order mark first (CSV), for spreadsheets"),
  ...range,
  ...reads,
};
export const exportAnswer = {
  description: "The export, streamed",
  headers: { "Content-Disposition": { schema: { type: "string" } } },
  content: {
    "text/csv": { schema: { type: "string" } },
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
      schema: { type: "string", format: "binary" },
    },
    "application/json": { schema: z.toJSONSchema(z.array(record), { io: "input" }) },
    "text/markdown": { schema: { type: "string" } },
  },
};

export const stats = z.object({
  views: int,
  starts: int,
  responses: int,
  submissions: int,
  completion_rate: num,
  sparkline_7d: z.array(z.object({ date: str, count: int })),
  change: z.object({
    period: z.literal("7d"),
    current: int,
    previous: int,
    delta: int,
    percent: num.nullable(),
  }),
  dropoff: z
    .array(z.object({ field: str, reached: int, answered: int }))
    .describe(
      "Per answerable field in form order: respondents who reached it (the page's progress beacons, or an answer) and responses that answered it",
    ),
  respondent_copies_dropped: int
    .optional()
    .describe(
      "Respondent copies and resume links not sent: their address had had 3 from this form in the last 24 hours",
    ),
  median_seconds: num
    .nullable()
    .describe("Median seconds from start to submit, over responses that carried it"),
  endings: z
    .array(z.object({ id: str, count: int }))
    .optional()
    .describe("Responses per ending reached (SPEC §24)"),
  variables: z
    .array(z.looseObject({ id: str, label: str, count: int }))
    .optional()
    .describe("Each variable: numbers' min, mean, max; other values' most frequent (SPEC §24)"),
});

export const period = z.enum(["7d", "30d", "90d", "all"], { error: "must be 7d, 30d, 90d or all" });
export const reportQuery = {
  period: period.default("7d"),
  format: z.enum(["markdown", "html"], { error: "must be markdown or html" }).default("markdown"),
  ...reads,
};
const text = { schema: { type: "string" } };
export const reportAnswer = {
  description: "The report",
  content: { "text/markdown": text, "text/html": text },
};
export const htmlPage = { description: "A read-only HTML page", content: { "text/html": text } };
/** A signed view link's query (functions/links/view-links.ts); checked by the link itself. */
export const signed = {
  exp: str.optional().describe("Expiry, Unix seconds"),
  sig: str.optional().describe("HMAC-SHA256 of the link, base64url"),
};

export const outboxQuery = { limit: limit(), offset };
export const outbox = z.object({
  emails: z.array(z.looseObject({})),
  limit: int,
  offset: int,
  total: int,
});

/** `POST /api/outbox/test` (formdown doctor --send-test): one message sent at once. */
export const mailTestBody = z.object({
  to: z.email({ error: "must be an email address" }).max(254).describe("Where to send it"),
});
export const mailTested = z.object({
  sent: z.boolean(),
  via: z.enum(["postmark", "smtp", "outbox"]).describe("outbox: no mailer, mail is kept, not sent"),
  id: str.optional(),
  error: str.optional(),
});
