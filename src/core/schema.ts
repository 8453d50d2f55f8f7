import { z } from "zod";
import { embedOriginsSchema, endingSchema, localeSchema } from "./ending-schema.ts";
import { fieldSchema } from "./field-schema.ts";
import { MAX_FIELDS, MAX_IMMEDIATE, MAX_OPTIONS, MAX_RECIPIENTS } from "./form-bounds.ts";
import { checkFormRules, ruleView } from "./form-rules.ts";
import { logicKeys } from "./logic/logic-schema.ts";
import { languagesSchema, ownLanguageIssues } from "./translation-schema.ts";

export * from "./field-schema.ts";
export { LOCALES } from "./locales/codes.ts";

/** Slugs: lowercase letters, digits and hyphens (seed rule 1). */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** YAML turns an unquoted timestamp into a Date; keep it as ISO text. */
const timestamp = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString() : v),
  z.iso.datetime({ offset: true, message: "must be an ISO timestamp, e.g. 2026-12-31T23:59:00Z" }),
);

const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex color like #0f172a");

export const brandingSchema = z
  .strictObject({
    /** URL of a logo image shown above the title. */
    logo: z.string().min(1).optional().describe("URL of a logo image"),
    /** Accent color of buttons and selections. */
    primary_color: hexColor.default("#0f172a").describe("Accent color (hex)"),
  })
  .describe("Logo and accent color");

export const respondentEmailSchema = z
  .strictObject({
    /** The email field whose answer is the address: only that, never another. */
    email_field: z.string().min(1).describe("Id of the email field whose answer receives the copy"),
    /** Subject; placeholders {form_title}, {field:<id>}, {date}. */
    subject: z
      .string()
      .max(200)
      .optional()
      .describe("Subject; placeholders {form_title}, {field:<id>}, {date}"),
    /** Markdown above the copy of the answers; {field:<id>} pipes answers (as text). */
    body: z
      .string()
      .max(5000)
      .optional()
      .describe("Markdown above the answers; {field:<id>} pipes answers"),
  })
  .describe("Confirmation email to the respondent, once per response");

/** The name of an environment variable on the server (a secret or URL never sits in the file). */
const envName = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,63}$/, "must be an environment variable name (A_Z, 0-9, _)");

/** A webhook kept in the form file (SPEC §26), reconciled with the form on each deploy. */
export const fileWebhookSchema = z.union([
  z.strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe("Where each event is POSTed, signed"),
    events: z
      .array(z.enum(["response.created", "response.deleted"]))
      .min(1)
      .optional()
      .describe("Default: both"),
    secret_env: envName.describe("Environment variable holding the signing secret (whsec_…)"),
  }),
  z.strictObject({
    slack: envName.describe("Environment variable holding a Slack incoming-webhook URL"),
  }),
  z.strictObject({
    sheet: envName.describe("Environment variable holding an Apps Script web app URL"),
  }),
]);
export type FileWebhook = z.infer<typeof fileWebhookSchema>;

export const notificationsSchema = z
  .strictObject({
    /** Who is emailed. */
    email: z.array(z.email()).max(MAX_RECIPIENTS).default([]).describe("Recipient addresses"),
    /** Subject; placeholders {form_title}, {field:<id>}, {date}. */
    subject: z
      .string()
      .optional()
      .describe("Email subject; placeholders {form_title}, {field:<id>}, {date}"),
    /** When emails are sent. */
    strategy: z
      .strictObject({
        /** Responses 1..N each get an email (0: none). */
        immediate_count: z
          .number()
          .int()
          .nonnegative()
          .max(MAX_IMMEDIATE)
          .default(10)
          .describe("Responses 1..N each get an email"),
        /** Target response count; enables percentage milestones. */
        target: z
          .number()
          .int()
          .positive()
          .optional()
          .describe("Target count for percentage milestones"),
        /** One email when the count reaches a milestone. */
        milestones: z
          .strictObject({
            /** Percentages of `target`. */
            percentage: z
              .array(z.number().positive().max(100))
              .max(MAX_OPTIONS)
              .default([])
              .describe("Percent of target"),
            /** Absolute response counts. */
            absolute: z
              .array(z.number().int().positive())
              .max(MAX_OPTIONS)
              .default([])
              .describe("Response counts"),
          })
          .prefault({})
          .describe("Milestone emails"),
      })
      .prefault({})
      .describe("Notification strategy"),
    /** A summary email per period (yesterday, or last Monday–Sunday, UTC) with the HTML report. */
    digest: z
      .enum(["daily", "weekly", "off"])
      .default("off")
      .describe("Digest email with the period's report: daily, weekly or off"),
    /** Send the digest even for a period without responses. */
    digest_empty: z
      .boolean()
      .default(false)
      .describe("Send the digest for a period without responses too"),
    /** A copy of their answers to the respondent, at the address answered in an email field. */
    respondent: respondentEmailSchema.optional(),
    /** Webhooks and the slack/sheet presets, from the file (SPEC §26). */
    webhooks: z.array(fileWebhookSchema).max(10).optional().describe("Webhooks kept in the file"),
  })
  .describe("Email notifications");

export const settingsSchema = z
  .strictObject({
    /** Show a progress bar on multi-page forms and surveys. */
    progress_bar: z.boolean().default(false).describe("Show a progress bar"),
    /** Shuffle choice options for each respondent. */
    randomize_options: z.boolean().default(false).describe("Shuffle choice options"),
    /** After this moment the form stops accepting responses. */
    closes_at: timestamp.optional().describe("ISO timestamp after which submissions are refused"),
    /** After this many responses the form stops accepting responses. */
    max_responses: z.number().int().positive().optional().describe("Maximum number of responses"),
    /** Label of the final button. */
    submit_label: z.string().min(1).max(40).optional().describe("Label of the submit button"),
    /** Sites allowed to embed the form in an iframe (CSP frame-ancestors). */
    embed_origins: embedOriginsSchema,
    /**
     * `informal` addresses respondents as du / tu / tu (de, fr, pt) on the page and in their
     * email; es, it, nl and pl pages speak informally already. Unset: the locale's usual register.
     */
    formality: z
      .enum(["formal", "informal"])
      .optional()
      .describe("informal: du/tu in de, fr, pt (es, it, nl, pl speak informally already)"),
    /** `false` removes "Made with Formdown" from the page (SPEC §26). */
    branding: z.boolean().optional().describe('false: no "Made with Formdown" on the page'),
    /** Responses (and their uploads) older than this many days are deleted daily (SPEC §25). */
    retention_days: z
      .number()
      .int()
      .positive()
      .max(36_500)
      .optional()
      .describe("Delete responses older than this many days (daily)"),
    /** Save a respondent's answers page by page on the server, resumable by a token (SPEC §25). */
    partial: z.boolean().optional().describe("Save answers page by page, resumable"),
    /** Days an unfinished partial response is kept (default 30). */
    partial_days: z
      .number()
      .int()
      .positive()
      .max(365)
      .optional()
      .describe("Days an unfinished partial is kept (default 30)"),
  })
  .describe("Behaviour settings");

export const quizSettingsSchema = z
  .strictObject({
    /** Whether respondents see their score after submitting. */
    show_results: z
      .enum(["immediately", "never"])
      .default("immediately")
      .describe("immediately or never"),
    /** Score (percent) needed to pass. */
    pass_percent: z.number().min(0).max(100).optional().describe("Percent needed to pass"),
    /** The ending for respondents who pass (needs pass_percent). */
    pass_ending: endingSchema.optional().describe("Ending for respondents who pass"),
    /** The ending for respondents who do not pass (needs pass_percent). */
    fail_ending: endingSchema.optional().describe("Ending for respondents who do not pass"),
  })
  .describe("Quiz scoring and result display");

export const accessSchema = z
  .strictObject({
    /**
     * Who may respond: everyone, holders of the link token, holders of the password, nobody, or
     * holders of a personal single-use link (`invite`, SPEC §25).
     */
    mode: z
      .enum(["public", "link", "password", "closed", "invite"])
      .default("public")
      .describe("public, link, password, closed or invite (personal single-use links)"),
  })
  .describe("Respondent access (tokens and passwords are set through the API, never in files)");

const formObject = z.strictObject({
  /** Display title shown to respondents. */
  title: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200)
    .describe("Title shown to respondents"),
  /** URL segment: lowercase letters, digits and hyphens. Unique across the service. */
  slug: z
    .string()
    .regex(
      SLUG,
      "must be lowercase letters, digits and hyphens only (no spaces, underscores or other characters)",
    )
    .max(80)
    .describe("URL segment: lowercase letters, digits and hyphens"),
  /** form: all fields (optionally in steps); survey: one field at a time; quiz: scored. */
  type: z
    .enum(["form", "survey", "quiz"])
    .default("form")
    .describe("form, survey (one field at a time) or quiz"),
  /** Instruction text (Markdown) shown above the fields. */
  body: z.string().trim().optional().describe("Markdown instructions shown above the fields"),
  branding: brandingSchema.prefault({}),
  notifications: notificationsSchema.prefault({}),
  /** Ask for an anti-bot proof before accepting a submission. */
  humanness: z.boolean().default(true).describe("Require the anti-bot challenge"),
  settings: settingsSchema.prefault({}),
  quiz: quizSettingsSchema.prefault({}),
  /** Names of values taken from the page URL's query string, stored under payload._hidden. */
  hidden: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, "must be a simple name like utm_source"))
    .max(MAX_OPTIONS)
    .default([])
    .describe("Query-string values recorded under payload._hidden"),
  access: accessSchema.prefault({}),
  /** The language of the page's buttons and messages. */
  locale: localeSchema,
  /** Extra languages, each with a translation file `<slug>.<lang>.md` beside the form (SPEC §20). */
  languages: languagesSchema,
  /** What respondents see after submitting: a title and Markdown body, or a redirect. */
  ending: endingSchema.optional(),
  ...logicKeys,
  /** The questions, in order. */
  fields: z
    .array(fieldSchema)
    .min(1, "a form needs at least one field")
    .max(MAX_FIELDS)
    .describe("The fields, in order"),
});

/** The whole form definition: the YAML header of a form file (plus `body`), or a REST/MCP body. */
export const formSchema = formObject
  .superRefine(
    (form, ctx) => {
      // with problems elsewhere, the rules still judge what can be read: one answer lists all
      const view = ctx.issues.length === 0 ? form : ruleView(form);
      if (view) checkFormRules(view, ctx);
      // `when` runs this on any input, null and non-objects too (a fuzzed `definition: null`)
      if (form && typeof form === "object")
        for (const issue of ownLanguageIssues(form)) ctx.addIssue(issue);
    },
    { when: () => true },
  )
  .describe("A Formdown form definition");

export type Form = z.output<typeof formSchema>;
export type FormInput = z.input<typeof formSchema>;
