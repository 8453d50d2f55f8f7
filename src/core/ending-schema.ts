import { z } from "zod";
import { LOCALES } from "./locales/codes.ts";

/** Where a redirect may go: http(s) with a host written out (placeholders only after it). */
const REDIRECT = /^https?:\/\/[^\s/{}?#]+(?:[/?#]\S*)?$/i;

/** What a respondent sees (or where they are sent) after submitting. */
export const endingSchema = z
  .strictObject({
    /** Heading of the ending (default "Thank you" in the form's language); may pipe answers. */
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Heading after submitting (default "Thank you"); may pipe {field:<id>}'),
    /** Markdown shown under the title; may pipe answers, {score} and {percent}. */
    body: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe("Markdown shown under the title; may pipe {field:<id>}, {hidden:<name>}, {score}"),
    /** Send the respondent here instead (http/https); piped values are percent-encoded. */
    redirect_url: z
      .string()
      .regex(REDIRECT, "must be an http:// or https:// URL")
      .max(2000)
      .optional()
      .describe("Send the respondent to this http(s) URL instead; piped values are URL-encoded"),
  })
  .describe("The ending shown after a successful submit");

/** The page's language: buttons, messages and notices (SPEC §13). */
export const localeSchema = z
  .enum(LOCALES, { message: `must be one of: ${LOCALES.join(", ")}` })
  .default("en")
  .describe(`Language of the page's buttons and messages: ${LOCALES.join(", ")}`);

/** `*`, or an origin (`https://example.com`, `https://*.example.com`, a port allowed). */
const ORIGIN = /^(?:\*|https?:\/\/(?:\*\.)?[a-z0-9.-]+(?::\d{1,5})?)$/i;

/** The sites that may show the form in an iframe: the page's CSP frame-ancestors. */
export const embedOriginsSchema = z
  .array(z.string().regex(ORIGIN, 'must be "*" or an origin like https://example.com'))
  .min(1)
  .default(["*"])
  .describe('Sites that may embed the form (CSP frame-ancestors): "*" or origins');
