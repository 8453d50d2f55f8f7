// Digest emails (issue 17): one per form and period, through the outbox like every email. Any
// instance may enqueue; the unique index on (form, digest_key) keeps it to one row, so one email.
import { fill } from "../../src/core/locales/index.ts";
import type { ReportData } from "../../src/core/report-data.ts";
import { renderReportHtml } from "../../src/core/report-html/document.ts";
import { reportLocale } from "../../src/core/report-locale.ts";
import { reportMarkdown } from "../../src/core/report-markdown.ts";
import type { Form } from "../../src/core/schema.ts";
import { escapeHtml } from "../../src/lib/markdown.ts";
import type { AppContext } from "../context.ts";
import { viewLink } from "../links/view-links.ts";
import { collectReport } from "../reports/report-data.ts";
import { clockNow } from "./clock.ts";
import { buttons, type Email } from "./compose-email.ts";
import { lastPeriod } from "./digest-period.ts";

/**
 * Writes the due digest of every form that asks for one: the last complete period, unless it
 * had no responses (and `digest_empty` is off) or the form did not exist yet. Returns how many
 * rows this call wrote (0 when another instance was first). One statement per kind of digest,
 * run once a minute: it read every such form's whole definition into the process and wrote its
 * row by a statement of its own, so one account's 300 digest forms of 400 KB held PGlite's event
 * loop 2-3.7 s every minute, and more with more forms (tenth review, REVIEW-10A).
 */
export async function enqueueDigests(ctx: AppContext, now = clockNow(ctx)): Promise<number> {
  let written = 0;
  for (const kind of ["daily", "weekly"] as const) {
    const period = lastPeriod(kind, now);
    const rows = await ctx.db.query(
      `insert into outbox (form_id, kind, recipients, digest_key, digest_from, digest_until)
       select f.id, 'digest', n.email, $2, $3, $4
         from forms f cross join lateral (select f.definition -> 'notifications' -> 'email' as email,
                f.definition -> 'notifications' -> 'digest_empty' = 'true'::jsonb as empty) n
        where f.definition -> 'notifications' ->> 'digest' = $1 and f.created_at < $4
          and case when jsonb_typeof(n.email) = 'array' then jsonb_array_length(n.email) end > 0
          and (n.empty or exists (select 1 from responses r where r.form_id = f.id and not r.test
                                   and r.submitted_at >= $3 and r.submitted_at < $4))
       on conflict (form_id, digest_key) where kind = 'digest' do nothing
       returning id`,
      [kind, period.key, new Date(period.from).toISOString(), new Date(period.until).toISOString()],
    );
    written += rows.length;
  }
  return written;
}

export interface DigestRow {
  form_id: string;
  slug: string;
  definition: Form;
  digest_key: string | null;
  digest_from: string | Date | null;
  digest_until: string | Date | null;
}

/** The digest: the period's totals and change, the HTML report inline, the Markdown as text. */
export async function digestEmail(ctx: AppContext, row: DigestRow): Promise<Email> {
  const from = new Date(row.digest_from ?? 0).getTime();
  const until = new Date(row.digest_until ?? 0).getTime();
  const daily = (row.digest_key ?? "").startsWith("daily:");
  const since = new Date(from).toISOString();
  const form = {
    id: row.form_id,
    slug: row.slug,
    title: row.definition.title,
    definition: row.definition,
  };
  const [data, [before], report] = await Promise.all([
    collectReport(ctx, form, {
      since,
      until: new Date(until).toISOString(),
      period: daily ? { kind: "day", from: since } : { kind: "week", from: since },
      now: until - 1,
    }),
    ctx.db.query<{ n: number }>(
      "select count(*)::int as n from responses where form_id = $1 and not test and submitted_at >= $2 and submitted_at < $3",
      [row.form_id, new Date(from - (until - from)).toISOString(), since],
    ),
    viewLink(ctx, { kind: "report", formId: row.form_id, period: daily ? "7d" : "30d" }),
  ]);
  return digestText(data, row.definition.title, before?.n ?? 0, daily, report);
}

/** The digest's words in the form's language (SPEC §21) around the report it carries. */
export function digestText(
  data: ReportData,
  title: string,
  previous: number,
  daily: boolean,
  report: string,
): Email {
  const l = reportLocale(data.locale);
  const count = l.responses(data.responses);
  const total = l.responses(data.totals.responses);
  const period = l.period(data.period);
  const change = l.say(daily ? "change_day" : "change_week", {
    delta: l.signed(data.responses - previous),
  });
  const subject = l
    .say(daily ? "daily_subject" : "weekly_subject", { title, count })
    .replace(/[\r\n]+/g, " ")
    .slice(0, 250);
  const summary = l.say("digest_summary", { title, count, period, change, total });
  const text = `${summary}\n\n${l.say("live_report", { url: report })}\n\n${reportMarkdown(data)}`;
  const intro = fill(escapeHtml(l.t.digest_intro), {
    count: `<b>${escapeHtml(count)}</b>`,
    period: escapeHtml(period),
    change: escapeHtml(change),
    total: escapeHtml(total),
  });
  const html = renderReportHtml(data, {
    intro: `<section class="card"><p>${intro}</p>${buttons([[l.t.open_live_report, report]])}</section>`,
  });
  return { subject, text, html };
}
