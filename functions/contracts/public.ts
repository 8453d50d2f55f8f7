// What respondents' pages call (no key): the public form, submit, beacons, uploads, the anti-bot
// challenge, a preview's version; and the service's own documents and health.
import { z } from "zod";
import { accessPassword } from "./common.ts";

const str = z.string();
const num = z.number();

export const submitBody = z.object({
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
export const submitted = z.object({
  response_id: str,
  submission_id: str,
  status: z.literal("received"),
  ignored: z
    .array(str)
    .optional()
    .describe(
      "Present when some answers were not stored: the ids of fields hidden by their show_if (or statements) that were answered anyway",
    ),
  score: z
    .object({ points: num, max_points: num, percent: num, passed: z.boolean().nullable() })
    .optional(),
  feedback: z
    .array(z.object({ field: str, correct: z.boolean(), explanation: str.optional() }))
    .optional()
    .describe("Quiz showing results: each scored question right or wrong"),
  ending: z
    .enum(["default", "pass", "fail"])
    .optional()
    .describe("Quiz: the ending the page shows (pass_ending, fail_ending, ending)"),
  test: z.literal(true).optional().describe("A test answer (SPEC §16)"),
});
export const formChanged = {
  description:
    "`form_changed`: the page's version is no longer accepted; reload the page (its answers are kept)",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

export const eventBody = z.object({
  type: z.enum(["view", "start", "progress"]),
  field: str
    .optional()
    .describe("progress: the id of a question the respondent reached (no answer)"),
  invite: str.optional().describe("view: the personal link the page was opened with (SPEC §25)"),
});
export const uploadBody = {
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
export const uploaded = z.object({ url: str });
export const publicDefinition = z.looseObject({});
export const publicQuery = {
  access: str.optional().describe("The link token or password (or the X-Formdown-Access header)"),
  turnstile_token: str
    .optional()
    .describe("A password is tried only with an anti-bot token (or the X-Formdown-Antibot header)"),
};
export const preview = z.object({ version: z.int(), updated_at: str });
export const challenge = z.looseObject({});

export const health = z.object({
  ok: z.boolean(),
  database: z.enum(["up"]),
  overdue: z.object({ emails: z.int(), deliveries: z.int() }).optional(),
  warnings: z.array(str).optional(),
});
export const healthDown = z.object({
  ok: z.boolean(),
  database: z.enum(["down"]),
  error: str,
  code: str,
});
export const healthQuery = { detail: z.enum(["1"]).optional() };
export const document = z.looseObject({});

export const partialBody = z.object({
  fields: z.looseObject({}),
  resume: str.optional().describe("The token a first save answered: the same partial, updated"),
  page: z.int().optional().describe("The page the respondent is on"),
  lang: str.optional(),
  access: str.optional().describe("The link token or password"),
});
export const partialSaved = z.object({
  resume: str.describe("Keep it: the completing submit sends it as `resume`"),
  id: str.describe("The id the completed response will have"),
});
export const partialLoaded = z.object({
  fields: z.looseObject({}),
  page: z.int().nullable(),
});
