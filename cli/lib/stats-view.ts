import type { z } from "zod";
import type { stats } from "../../functions/contracts/responses.ts";
import { printable } from "./output.ts";
import { bar, type Glyphs, sparkline } from "./terminal-charts.ts";

/** GET /api/forms/{slug}/stats's answer. */
type StatsView = z.output<typeof stats>;

const BAR = 24;

function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "no timings yet";
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
}

/** `formdown stats` for a person: figures, the 7-day sparkline and the drop-off bars. */
export function renderStats(
  s: StatsView,
  labels: ReadonlyMap<string, string>,
  g: Glyphs,
  colour: boolean,
): string {
  const bold = (t: string) => (colour ? `\x1b[1m${t}\x1b[22m` : t);
  const dim = (t: string) => (colour ? `\x1b[2m${t}\x1b[22m` : t);
  const sign = s.change.delta >= 0 ? "+" : "";
  const pct = s.change.percent === null ? "" : `, ${sign}${s.change.percent}%`;
  const counts = s.sparkline_7d.map((d) => d.count);
  const lines = [
    `${bold("Responses")}   ${s.responses}`,
    `${bold("Views")}       ${s.views}`,
    `${bold("Starts")}      ${s.starts}`,
    `${bold("Completion")}  ${Math.round(s.completion_rate * 100)}%`,
    `${bold("Median time")} ${duration(s.median_seconds)}`,
    "",
    `${bold("Last 7 days")} ${sparkline(counts, g)}  ${counts.join(" ")}  (${sign}${s.change.delta}${pct} vs the 7 days before)`,
  ];
  if (s.dropoff?.length) {
    const max = Math.max(1, ...s.dropoff.map((d) => d.reached));
    // labels are the author's text: printable, as all the server's data (output.ts)
    const names = s.dropoff.map((d) => clipLabel(printable(labels.get(d.field) ?? d.field)));
    const width = Math.max(...names.map((n) => n.length));
    lines.push("", `${bold("Drop-off")} ${dim(`(reached ${g.arrow} answered)`)}`);
    s.dropoff.forEach((d, i) => {
      const drawn = bar(d.answered, max, BAR, g, d.reached);
      lines.push(
        `${names[i]!.padEnd(width)}  ${drawn}${" ".repeat(Math.max(0, BAR - [...drawn].length))}  ${d.reached} ${g.arrow} ${d.answered}`,
      );
    });
  }
  return lines.join("\n");
}

const clipLabel = (t: string) => (t.length > 32 ? `${t.slice(0, 31)}…` : t);
