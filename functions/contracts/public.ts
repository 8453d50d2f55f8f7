// What respondents' pages call (no key): the public form, submit, beacons, uploads, the anti-bot
// challenge, a preview's version; and the service's own documents and health. The routes a cold
// start serves carry only `front(operationId)` (contracts/front-ops.ts, no zod): their
// descriptions are `frontOperations` below, attached by functions/openapi.ts.
import { z } from "zod";
import {
  accessPassword,
  errorAnswer,
  errors,
  json,
  none,
  operation,
  PUBLIC,
  requestBody,
} from "./common.ts";

const str = z.string();
const num = z.number();

const submitBody = z.object({
  fields: z.looseObject({}),
  hidden: z.looseObject({}).optional(),
  turnstile_token: str.optional(),
  access: z.union([str, accessPassword]).optional().describe("The link token or password"),
  version: z
    .int()
    .min(1)
    .optional()
    .describe(
      "The form version the page was built from: answers are checked against it while it is live or within FORMDOWN_VERSION_GRACE after (SPEC §16); without it, the live version",
    ),
  preview: str.optional().describe("A preview page's token: the answer is a test answer"),
  invite: str
    .optional()
    .describe(
      "A personal link's token (`?invite=`, SPEC §25): needed in invite mode, answered once (then 409 already_answered)",
    ),
  resume: str
    .optional()
    .describe("A partial response's resume token (SPEC §25): the response takes its id"),
  seconds: num
    .min(0)
    .optional()
    .describe("Seconds since the respondent started (stored as `seconds`; null when implausible)"),
  lang: str
    .optional()
    .describe(
      "The language the respondent read: the form's locale (default) or one of its languages (SPEC §20); option labels of that translation are stored as the form's own options",
    ),
});
const submitted = z.object({
  response_id: str,
  submission_id: str,
  status: z.literal("received"),
  ignored: z
    .array(str)
    .optional()
    .describe(
      "Present when some answers were not stored: the ids of fields the form's logic hid (show_if, a page's condition, a jump) or statements, answered anyway",
    ),
  score: z
    .object({ points: num, max_points: num, percent: num, passed: z.boolean().nullable() })
    .optional(),
  feedback: z
    .array(z.object({ field: str, correct: z.boolean(), explanation: str.optional() }))
    .optional()
    .describe("Quiz showing results: each scored question right or wrong"),
  ending: z
    .string()
    .optional()
    .describe(
      "The ending the page shows: an id of `endings` (SPEC §24), a quiz's pass or fail, or default",
    ),
  test: z.literal(true).optional().describe("A test answer (SPEC §16)"),
});
const formChanged = errorAnswer(
  "`form_changed`: the page's version is no longer accepted; reload the page (its answers are kept)",
);

const eventBody = z.object({
  type: z.enum(["view", "start", "progress"]),
  field: str
    .optional()
    .describe("progress: the id of a question the respondent reached (no answer)"),
  invite: str.optional().describe("view: the personal link the page was opened with (SPEC §25)"),
});
const uploadBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        ...z.toJSONSchema(
          z.object({
            field: str,
            access: str.describe("The link token or password, as on submit"),
            invite: str.describe("A personal link's token, as on submit (invite mode)"),
            turnstile_token: str.describe("The anti-bot token, as on submit"),
            preview: str.describe(
              "A draft's preview token (a draft takes uploads only so, or with the key)",
            ),
            file: str.meta({ contentMediaType: "application/octet-stream" }),
          }),
          { io: "input" },
        ),
        description:
          "Parts in this order: field, access, turnstile_token, then file (streamed to storage, cut off at max_mb)",
      },
    },
  },
};
const uploaded = z.object({ url: str });
const publicDefinition = z.looseObject({});
const preview = z.object({ version: z.int(), updated_at: str });
const challenge = z.looseObject({});

const health = z.object({
  ok: z.boolean(),
  database: z.enum(["up"]),
  version: str.describe("The server's version"),
  instance: str.describe("Which instance answered (FORMDOWN_INSTANCE, or a name per process)"),
  overdue: z.object({ emails: z.int(), deliveries: z.int() }).optional(),
  warnings: z.array(str).optional(),
  errors: z
    .array(str)
    .optional()
    .describe("What already fails, e.g. a webhook key other than the database's"),
});
const healthDown = z.object({
  ok: z.boolean(),
  database: z.enum(["down"]),
  error: str,
  code: str,
});
export const document = z.looseObject({});

const partialBody = z.object({
  fields: z.looseObject({}),
  resume: str.optional().describe("The token a first save answered: the same partial, updated"),
  claim: z
    .boolean()
    .optional()
    .describe("The page was opened with `resume` in its address: the partial gets a new token"),
  page: z.int().optional().describe("The page the respondent is on"),
  lang: str.optional(),
  access: str.optional().describe("The link token or password"),
  invite: str.optional().describe("An invite-only form's personal link (not spent by a save)"),
  turnstile_token: str.optional().describe("An anti-bot token: needed by a password form's saves"),
});
const partialSaved = z.object({
  resume: str.describe("Keep it: the completing submit sends it as `resume`"),
  id: str.describe("The id the completed response will have"),
});
const partialLoaded = z.object({
  fields: z.looseObject({}),
  page: z.int().nullable(),
});

/** A plain-string query parameter (front routes read theirs with `one`, contracts/front-ops.ts). */
const inQuery = (name: string, description?: string, values?: string[]) => ({
  in: "query",
  name,
  schema: { type: "string", ...(values ? { enum: values } : {}) },
  ...(description ? { description } : {}),
});

/**
 * How a respondent's page names its form on the endpoints it calls (SPEC §22): the path's `slug`
 * is the form's id or a slug, and a page built from files sends `built` (form-address.ts).
 */
const pageForm = [
  {
    in: "path",
    name: "slug",
    required: true,
    schema: { type: "string" },
    description:
      "The form's id (what a page the server rendered sends: it holds through renames) or its slug (or a slug it was renamed from)",
  },
  inQuery(
    "built",
    "A page built from files: the commit it was built at. A commit deployed before the slug was renamed reaches the renamed form, even after a new form took the slug",
  ),
];

/** The descriptions of the routes a cold start serves (functions/app.ts frontRoutes), by operationId. */
export const frontOperations = Object.fromEntries(
  [
    operation(
      "getHealth",
      "Liveness, and whether the database answers",
      {
        200: json(health),
        503: json(
          healthDown,
          "The database cannot be reached (Retry-After says when to look again)",
        ),
        ...errors("BadRequest", "HeadersTooLarge"),
      },
      {
        ...PUBLIC,
        description:
          "With `detail=1` and an API key (`formdown doctor`): `overdue` counts emails and webhook deliveries due for over 5 minutes (no sender running), `warnings` names settings that would put localhost in links.",
        parameters: [inQuery("detail", undefined, ["1"])],
      },
    ),
    operation(
      "getChallenge",
      "An ALTCHA proof-of-work challenge",
      { 200: json(challenge), ...errors("NotFound") },
      PUBLIC,
    ),
    operation(
      "submitResponse",
      "Submit a response (public, anti-bot token)",
      {
        201: json(submitted),
        ...errors("BadRequest", "Unauthorized", "Forbidden", "NotFound", "TooLarge", "Captcha"),
        ...errors("RateLimited"),
        409: formChanged,
      },
      {
        ...PUBLIC,
        description:
          "Sent with the owner's API key (Authorization: Bearer) or a preview page's token (`preview`), it is a test answer (SPEC §16): no anti-bot token, flagged test, left out of counts, emails and webhooks. A draft takes test answers only.",
        parameters: [
          ...pageForm,
          { name: "Idempotency-Key", in: "header", required: false, schema: { type: "string" } },
        ],
        requestBody: requestBody(submitBody),
      },
    ),
    operation(
      "getPreviewVersion",
      "A draft preview's version, which its page polls to reload after a change",
      { 200: json(preview), ...errors("NotFound") },
      PUBLIC,
    ),
    operation(
      "savePartialResponse",
      "Save a respondent's answers so far (settings.partial); answers the resume token. The first save that answers an email field has the resume link emailed to that address (once per partial, at most 3 emails to one address per form a day with the respondent's copies)",
      {
        200: json(partialSaved),
        ...errors("BadRequest", "Forbidden", "NotFound", "Conflict", "TooLarge", "Captcha"),
        ...errors("RateLimited"),
      },
      { ...PUBLIC, parameters: pageForm, requestBody: requestBody(partialBody) },
    ),
    operation(
      "getPartialResponse",
      "A partial response's answers, to continue where the respondent left off",
      { 200: json(partialLoaded), ...errors("Forbidden", "NotFound") },
      { ...PUBLIC, parameters: pageForm },
    ),
    operation(
      "recordPageEvent",
      "Page beacon",
      { 204: none("Counted"), ...errors("BadRequest", "NotFound", "RateLimited") },
      { ...PUBLIC, parameters: pageForm, requestBody: requestBody(eventBody) },
    ),
    operation(
      "uploadFile",
      "Upload a file for a file/image field",
      {
        201: json(uploaded),
        ...errors("BadRequest", "Forbidden", "NotFound", "TooLarge", "Captcha", "RateLimited"),
      },
      { ...PUBLIC, parameters: pageForm, requestBody: uploadBody },
    ),
    operation(
      "getUpload",
      "An uploaded file",
      { 200: none("The file"), ...errors("NotFound") },
      PUBLIC,
    ),
    operation(
      "getPublicForm",
      "The public definition (no answer key)",
      {
        200: json(publicDefinition),
        ...errors("BadRequest", "Forbidden", "NotFound", "Captcha", "RateLimited"),
      },
      {
        ...PUBLIC,
        parameters: [
          inQuery("access", "The link token or password (or the X-Formdown-Access header)"),
          inQuery(
            "turnstile_token",
            "A password is tried only with an anti-bot token (or the X-Formdown-Antibot header)",
          ),
        ],
      },
    ),
  ].map((o) => [o.operationId, o]),
);
