// The insights endpoints: exports, stats, report, outbox.
import { range, record } from "../openapi-paths.ts";
import {
  err,
  includeTest,
  int,
  json,
  num,
  obj,
  owner,
  pub,
  q,
  slug,
  str,
  where,
} from "../openapi-schema.ts";

const signed = [
  q("exp", { type: "string", description: "Expiry, Unix seconds" }),
  q("sig", { type: "string", description: "HMAC-SHA256 of the link, base64url" }),
];
const page = { description: "A read-only HTML page", content: { "text/html": { schema: str } } };

export const insightPaths: Record<string, Record<string, unknown>> = {
  "/api/forms/{slug}/responses/export": {
    parameters: [slug],
    get: exportOp("Export responses (variant A)"),
  },
  "/api/forms/{slug}/submissions/export": {
    parameters: [slug],
    get: exportOp("Export submissions (variant B)"),
  },
  "/api/forms/{slug}/stats": {
    parameters: [slug],
    get: {
      summary: "Views, starts, responses, completion, 7-day sparkline and change",
      description:
        "With where, the responses and their drop-off and median are those of the segment; views, starts and progress beacons are not answers and stay the form's.",
      parameters: [includeTest, where],
      responses: {
        200: json(
          obj({
            views: int,
            starts: int,
            responses: int,
            submissions: int,
            completion_rate: num,
            sparkline_7d: { type: "array", items: obj({ date: str, count: int }) },
            change: obj({
              period: { const: "7d" },
              current: int,
              previous: int,
              delta: int,
              percent: { type: ["number", "null"] },
            }),
            dropoff: {
              type: "array",
              description:
                "Per answerable field in form order: respondents who reached it (the page's progress beacons, or an answer) and responses that answered it",
              items: obj({ field: str, reached: int, answered: int }),
            },
            median_seconds: {
              type: ["number", "null"],
              description: "Median seconds from start to submit, over responses that carried it",
            },
            respondent_copies_dropped: {
              type: "integer",
              description:
                "Respondent copies not sent: their address had had 3 from this form in the last 24 hours",
            },
          }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/report": {
    parameters: [slug],
    get: {
      summary: "A report of the period's responses, as Markdown or as one self-contained HTML page",
      description:
        'format=markdown (default): GFM text. format=html: one HTML document with inline CSS and SVG charts (a chart per summarised field, the 30-day trend, drop-off), no script and no external request; every chart has a <title> and a table of its numbers. With where, the report is of a segment and its heading says so ("… — 7 responses where recommend ≤ 6").',
      parameters: [
        q("period", { enum: ["7d", "30d", "90d", "all"] }),
        q("format", { enum: ["markdown", "html"] }),
        includeTest,
        where,
      ],
      responses: {
        200: {
          description: "The report",
          content: { "text/markdown": { schema: str }, "text/html": { schema: str } },
        },
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/view/responses/{id}": {
    parameters: [{ name: "id", in: "path", required: true, schema: str }],
    get: {
      ...pub,
      summary:
        "One response as a read-only HTML page, through a signed, expiring link from an email",
      parameters: signed,
      responses: { 200: page, ...err("Forbidden", "NotFound") },
    },
  },
  "/view/forms/{form_id}/report": {
    parameters: [{ name: "form_id", in: "path", required: true, schema: str }],
    get: {
      ...pub,
      summary: "The HTML report through a signed, expiring link from an email",
      parameters: [q("period", { enum: ["7d", "30d", "90d", "all"] }), ...signed],
      responses: { 200: page, ...err("Forbidden", "NotFound") },
    },
  },
  "/api/outbox": {
    get: {
      summary: "Emails due or sent for your forms, newest first",
      parameters: [q("limit", int), q("offset", int)],
      responses: {
        200: json(
          obj({
            emails: { type: "array", items: { type: "object" } },
            limit: int,
            offset: int,
            total: int,
          }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
};

function exportOp(summary: string) {
  return {
    summary,
    parameters: [q("format", { enum: ["csv", "json", "markdown"] }), ...range, includeTest, where],
    responses: {
      200: {
        description: "The export, streamed",
        headers: { "Content-Disposition": { schema: str } },
        content: {
          "text/csv": { schema: str },
          "application/json": { schema: { type: "array", items: record } },
          "text/markdown": { schema: str },
        },
      },
      ...err("BadRequest"),
      ...owner,
    },
  };
}
