// The report's words, numbers and dates in the form's language (SPEC §21): the Markdown report,
// the HTML report and the digest format through this one object, so they say the same thing.
import { isRtl, LOCALES } from "./locales/codes.ts";
import { fill, messages } from "./locales/index.ts";
import { ownerText } from "./locales/owner-text.ts";
import { type ReportText, reportText } from "./locales/report-text.ts";

/** The period a report covers, named when it is shown. */
export type ReportPeriod =
  | { kind: "all" }
  | { kind: "days"; days: number }
  | { kind: "day"; from: string }
  | { kind: "week"; from: string };

export interface ReportLocale {
  lang: string;
  dir: "ltr" | "rtl";
  t: ReportText;
  /** A report text with its `{name}` placeholders filled. */
  say(key: keyof ReportText, values?: Record<string, string | number>): string;
  /** A count: 1,234 / 1.234. */
  count(n: number): string;
  /** An answer's value or a statistic: grouping off (a year stays 1987), local decimals. */
  num(n: number): string;
  /** A share in [0, 1] as a whole percentage: 67% / 67 %. */
  pct(share: number): string;
  /** A signed change: +3, −2. */
  signed(n: number): string;
  /** A UTC day (YYYY-MM-DD…) as a date, and as a short day of a chart's axis. */
  date(iso: string): string;
  day(iso: string): string;
  /** A moment, to the minute, in UTC. */
  dateTime(iso: string): string;
  /** 95 → "1 min 35 s". */
  duration(seconds: number | null): string;
  /** "1 response" / "12 responses" (the email tables' words). */
  responses(n: number): string;
  /** The "period" a report covers, as a phrase. */
  period(p: ReportPeriod): string;
  /** A choice's label as shown: yes/no in the form's language, other options as written. */
  option(type: string, value: string): string;
  /** A quiz score bucket (0, 10, … 90) as "0–9%" … "90–100%". */
  scoreRange(bucket: number): string;
  /** A language code named in the report's language, with the code: "German (de)". */
  language(code: string): string;
  /** True where the language says "one" for n (its other words take the plural). */
  one(n: number): boolean;
}

const UTC = { timeZone: "UTC" } as const;

export function reportLocale(locale: string): ReportLocale {
  const lang = (LOCALES as readonly string[]).includes(locale) ? locale : "en";
  const t = reportText(lang);
  const counts = new Intl.NumberFormat(lang);
  const nums = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false });
  const shares = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
  const signs = new Intl.NumberFormat(lang, { signDisplay: "always" });
  const dates = new Intl.DateTimeFormat(lang, { ...UTC, dateStyle: "medium" });
  const languages = new Intl.DisplayNames(lang, { type: "language" });
  const days = new Intl.DateTimeFormat(lang, { ...UTC, month: "2-digit", day: "2-digit" });
  const moments = new Intl.DateTimeFormat(lang, {
    ...UTC,
    dateStyle: "medium",
    timeStyle: "short",
  });
  const plurals = new Intl.PluralRules(lang);
  const ui = messages(lang);
  const owner = ownerText(lang);
  const say = (key: keyof ReportText, values: Record<string, string | number> = {}) =>
    fill(t[key], values);
  const date = (iso: string) => dates.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
  return {
    lang,
    dir: isRtl(lang) ? "rtl" : "ltr",
    t,
    say,
    count: (n) => counts.format(n),
    num: (n) => nums.format(n),
    pct: (share) => shares.format(share),
    signed: (n) => signs.format(n),
    date,
    day: (iso) => days.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`)),
    dateTime: (iso) => moments.format(new Date(iso)),
    language: (code) => `${languages.of(code) ?? code} (${code})`,
    duration(seconds) {
      if (seconds === null) return t.no_timings;
      const s = Math.round(seconds);
      const m = Math.floor(s / 60);
      const parts: [keyof ReportText, number][] =
        s < 60
          ? [["seconds", s]]
          : m < 60
            ? [
                ["minutes", m],
                ...(s % 60 ? [["seconds", s % 60] as [keyof ReportText, number]] : []),
              ]
            : [
                ["hours", Math.floor(m / 60)],
                ["minutes", m % 60],
              ];
      return parts.map(([key, n]) => say(key, { n: counts.format(n) })).join(" ");
    },
    responses: (n) =>
      fill(plurals.select(n) === "one" ? owner.response_one : owner.response_other, {
        n: counts.format(n),
      }),
    period(p) {
      if (p.kind === "all") return t.period_all;
      if (p.kind === "days") return say("period_days", { n: counts.format(p.days) });
      if (p.kind === "day") return date(p.from);
      return say("period_week", { date: date(p.from) });
    },
    option: (type, value) =>
      type === "yes_no" && value === "yes"
        ? ui.yes
        : type === "yes_no" && value === "no"
          ? ui.no
          : value,
    scoreRange: (b) =>
      say("score_range", { from: nums.format(b), to: nums.format(b === 90 ? 100 : b + 9) }),
    one: (n) => plurals.select(n) === "one",
  };
}
