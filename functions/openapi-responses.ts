// The responses and submissions endpoints (SPEC §6, §12): reading, one by id, and deleting.
import { range, record } from "./openapi-paths.ts";
import { err, id, includeTest, int, json, obj, owner, q, slug, where } from "./openapi-schema.ts";

/** Deleting responses (SPEC §12): one by id, or a time range in one statement. */
const responseDeletes = Object.fromEntries(
  ["response", "submission"].flatMap((what) => [
    [
      `${what}s`,
      {
        summary: `Delete the ${what}s in a time range and/or matching where (at least one of since/until/where), or every test answer (test=true)`,
        description:
          "Each erased response takes its uploads and unsent emails with it, and response.deleted webhooks are told. With where, test answers only with include_test=true (as the list shows them).",
        parameters: [
          ...range,
          where,
          includeTest,
          q("test", {
            enum: ["true", "false"],
            description:
              "true: delete the form's test answers alone (SPEC §16), whatever their time",
          }),
        ],
        responses: { 200: json(obj({ deleted: int })), ...err("BadRequest"), ...owner },
      },
    ],
    [
      what,
      {
        summary: `Delete one ${what}, its uploads and pending emails`,
        responses: { 204: { description: "Deleted" }, ...owner },
      },
    ],
  ]),
) as Record<"responses" | "submissions" | "response" | "submission", unknown>;

export const responsePaths: Record<string, Record<string, unknown>> = {
  "/api/forms/{slug}/responses": {
    parameters: [slug],
    get: {
      summary: "Responses (variant A)",
      parameters: [q("page", int), q("limit", int), ...range, includeTest, where],
      responses: {
        200: json(
          obj({ responses: { type: "array", items: record }, page: int, limit: int, total: int }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
    delete: responseDeletes.responses,
  },
  "/api/forms/{slug}/submissions": {
    parameters: [slug],
    get: {
      summary: "Submissions (variant B)",
      parameters: [q("limit", int), q("offset", int), ...range, includeTest, where],
      responses: {
        200: json(
          obj({
            submissions: { type: "array", items: record },
            limit: int,
            offset: int,
            total: int,
          }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
    delete: responseDeletes.submissions,
  },
  "/api/forms/{slug}/responses/{id}": {
    parameters: [slug, id],
    get: { summary: "One response", responses: { 200: json(record), ...owner } },
    delete: responseDeletes.response,
  },
  "/api/forms/{slug}/submissions/{id}": {
    parameters: [slug, id],
    get: { summary: "One submission", responses: { 200: json(record), ...owner } },
    delete: responseDeletes.submission,
  },
};
