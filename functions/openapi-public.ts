// The public endpoints respondents' pages call (no key; anti-bot on submit).
import { err, json, num, obj, pub, slug, str } from "./openapi-paths.ts";

export const publicPaths: Record<string, Record<string, unknown>> = {
  "/api/forms/{slug}/public": {
    parameters: [slug],
    get: {
      ...pub,
      summary: "The public definition (no answer key)",
      responses: { 200: json({ type: "object" }), ...err("NotFound") },
    },
  },
  "/api/forms/{slug}/submit": {
    parameters: [slug, { name: "Idempotency-Key", in: "header", required: false, schema: str }],
    post: {
      ...pub,
      summary: "Submit a response (public, anti-bot token)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: obj(
              {
                fields: { type: "object" },
                hidden: { type: "object" },
                turnstile_token: str,
                access: str,
                seconds: {
                  ...num,
                  minimum: 0,
                  description:
                    "Seconds since the respondent started (stored as `seconds`; null when implausible)",
                },
              },
              ["fields"],
            ),
          },
        },
      },
      responses: {
        201: json(
          obj(
            {
              response_id: str,
              submission_id: str,
              status: { const: "received" },
              ignored: {
                type: "array",
                items: str,
                description:
                  "Present when some answers were not stored: the ids of fields hidden by their show_if (or statements) that were answered anyway",
              },
              score: obj({
                points: num,
                max_points: num,
                percent: num,
                passed: { type: ["boolean", "null"] },
              }),
              feedback: {
                type: "array",
                description: "Quiz showing results: each scored question right or wrong",
                items: obj({ field: str, correct: { type: "boolean" }, explanation: str }, [
                  "field",
                  "correct",
                ]),
              },
              ending: {
                enum: ["default", "pass", "fail"],
                description: "Quiz: the ending the page shows (pass_ending, fail_ending, ending)",
              },
            },
            ["response_id", "submission_id", "status"],
          ),
        ),
        ...err("BadRequest", "Forbidden", "NotFound", "TooLarge", "Captcha", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}/events": {
    parameters: [slug],
    post: {
      ...pub,
      summary: "Page beacon",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: obj(
              {
                type: { enum: ["view", "start", "progress"] },
                field: {
                  ...str,
                  description: "progress: the id of a question the respondent reached (no answer)",
                },
              },
              ["type"],
            ),
          },
        },
      },
      responses: {
        204: { description: "Counted" },
        ...err("BadRequest", "NotFound", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}/uploads": {
    parameters: [slug],
    post: {
      ...pub,
      summary: "Upload a file for a file/image field",
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: obj({
              field: str,
              file: { type: "string", contentMediaType: "application/octet-stream" },
            }),
          },
        },
      },
      responses: {
        201: json(obj({ url: str })),
        ...err("BadRequest", "NotFound", "TooLarge", "RateLimited"),
      },
    },
  },
  "/api/uploads/{key}": {
    get: {
      ...pub,
      summary: "An uploaded file",
      parameters: [{ name: "key", in: "path", required: true, schema: str }],
      responses: { 200: { description: "The file" }, ...err("NotFound") },
    },
  },
  "/api/challenge": {
    get: {
      ...pub,
      summary: "An ALTCHA proof-of-work challenge",
      responses: { 200: json({ type: "object" }), ...err("NotFound") },
    },
  },
};
