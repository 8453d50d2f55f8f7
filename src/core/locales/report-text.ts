// The report's and the digest's text in the form's language (SPEC §21): one data file per locale
// under report/, English the reference. The report speaks about the answers, never to the
// respondent, so it has no informal variant.
import type { Locale } from "./codes.ts";
import { reportAr } from "./report/ar.ts";
import { reportDe } from "./report/de.ts";
import { type ReportKey, type ReportText, reportEn } from "./report/en.ts";
import { reportEs } from "./report/es.ts";
import { reportFr } from "./report/fr.ts";
import { reportHe } from "./report/he.ts";
import { reportIt } from "./report/it.ts";
import { reportJa } from "./report/ja.ts";
import { reportNl } from "./report/nl.ts";
import { reportPl } from "./report/pl.ts";
import { reportPt } from "./report/pt.ts";
import { reportZh } from "./report/zh.ts";

export const REPORT_TEXT: Record<Locale, ReportText> = {
  en: reportEn,
  de: reportDe,
  fr: reportFr,
  es: reportEs,
  it: reportIt,
  pt: reportPt,
  nl: reportNl,
  pl: reportPl,
  ja: reportJa,
  zh: reportZh,
  ar: reportAr,
  he: reportHe,
};

/** The report text of a locale (English for one it does not know). */
export const reportText = (locale: string): ReportText =>
  (REPORT_TEXT as Record<string, ReportText>)[locale] ?? reportEn;

export type { ReportKey, ReportText };
