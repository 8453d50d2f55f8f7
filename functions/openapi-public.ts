// The public endpoints respondents' pages call (no key; anti-bot on submit).
import { err, int, json, num, obj, pub, slug, str } from "./openapi-schema.ts";

export const publicPaths: Record<string, Record<string, unknown>> = {
  "/api/preview/{token}": {
    parameters: [{ name: "token", in: "path", required: true, schema: str }],
    get: {
      ...pub,
      summary: "A draft preview's version, which its page polls to reload after a change",
      responses: {
        200: json(obj({ version: int, updated_at: str }, ["version", "updated_at"])),
        ...err("NotFound"),
      },
    },
  },
  "/api/forms/{slug}/public": {
    parameters: [
      slug,
      { name: "access", in: "query", required: false, schema: str },
      { name: "X-Formdown-Access", in: "header", required: false, schema: str },
      {
        name: "X-Formdown-Antibot",
        in: "header",
        required: false,
        schema: str,
        description: "An anti-bot token: every password attempt needs one (SPEC §23)",
      },
    ],
    get: {
      ...pub,
      summary: "The public definition (no answer key); a link or password form's with its secret",
      responses: {
        200: json({ type: "object" }),
        ...err("Forbidden", "NotFound", "Captcha", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}/submit": {
    parameters: [slug, { name: "Idempotency-Key", in: "header", required: false, schema: str }],
    post: {
      ...pub,
      summary: "Submit a response (public, anti-bot token)",
      description:
        "Sent with the owner's API key (Authorization: Bearer) or a preview page's token (`preview`), it is a test answer (SPEC §16): no anti-bot token, flagged test, left out of counts, emails and webhooks. A draft takes test answers only.",
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
                version: {
                  ...int,
                  minimum: 1,
                  description:
                    "The form version the page was built from: answers are checked against it while it is live or within FORMDOWN_VERSION_GRACE after (SPEC §16); without it, the live version",
                },
                preview: {
                  ...str,
                  description: "A preview page's token: the answer is a test answer",
                },
                seconds: {
                  ...num,
                  minimum: 0,
                  description:
                    "Seconds since the respondent started (stored as `seconds`; null when implausible)",
                },
                lang: {
                  ...str,
                  description:
                    "The language the respondent read: the form's locale (default) or one of its languages (SPEC §20); option labels of that translation are stored as the form's own options",
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
              test: { const: true, description: "A test answer (SPEC §16)" },
            },
            ["response_id", "submission_id", "status"],
          ),
        ),
        ...err(
          "BadRequest",
          "Unauthorized",
          "Forbidden",
          "NotFound",
          "TooLarge",
          "Captcha",
          "RateLimited",
        ),
        409: {
          description:
            "`form_changed`: the page's version is no longer accepted; reload the page (its answers are kept)",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
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
            schema: {
              ...obj({
                field: str,
                access: { ...str, description: "The link token or password, as on submit" },
                turnstile_token: { ...str, description: "The anti-bot token, as on submit" },
                preview: { ...str, description: "A draft's preview token, as on submit" },
                file: { type: "string", contentMediaType: "application/octet-stream" },
              }),
              description:
                "Parts in this order: field, access, turnstile_token, preview, then file (streamed to storage, cut off at max_mb)",
            },
          },
        },
      },
      responses: {
        201: json(obj({ url: str })),
        ...err("BadRequest", "Forbidden", "NotFound", "TooLarge", "Captcha", "RateLimited"),
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
