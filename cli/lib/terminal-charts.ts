// Charts made of characters for `formdown stats`: unicode blocks where the terminal speaks
// UTF-8, plain ASCII where it may not; colour only on a terminal that asks for none of it off.

export interface Glyphs {
  /** Sparkline levels, lowest first. */
  levels: string[];
  /** A full cell of a bar, and of its lighter remainder. */
  full: string;
  light: string;
  /** Partial cells in eighths (unicode) or nothing (ASCII rounds to whole cells). */
  eighths: string[];
  arrow: string;
}

export const UNICODE: Glyphs = {
  levels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"],
  full: "█",
  light: "░",
  eighths: ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"],
  arrow: "→",
};

export const ASCII: Glyphs = {
  levels: ["_", ".", "-", "~", "=", "+", "*", "#"],
  full: "#",
  light: "-",
  eighths: [],
  arrow: "->",
};

/** Whether the terminal's locale says UTF-8 (LC_ALL, then LC_CTYPE, then LANG, as C does). */
export function speaksUtf8(env: Record<string, string | undefined>, platform: string): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  if (locale) return /utf-?8/i.test(locale);
  return platform === "win32" || env.TERM_PROGRAM !== undefined;
}

/** Colour only on a terminal, never when NO_COLOR is set or the output is piped. */
export function wantsColour(isTty: boolean, env: Record<string, string | undefined>): boolean {
  return isTty && !env.NO_COLOR && env.TERM !== "dumb";
}

export function sparkline(values: readonly number[], g: Glyphs): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) =>
      max === 0 ? g.levels[0]! : g.levels[Math.round((v / max) * (g.levels.length - 1))]!,
    )
    .join("");
}

/** A bar `width` cells long at full scale: `value` of `max` in full cells, `also` in light ones. */
export function bar(value: number, max: number, width: number, g: Glyphs, also = value): string {
  const scale = max <= 0 ? 0 : width / max;
  const cells = (n: number) => Math.max(0, Math.min(width, n * scale));
  const dark = cells(value);
  let text = g.full.repeat(Math.floor(dark));
  const rest = dark - Math.floor(dark);
  if (g.eighths.length) text += g.eighths[Math.round(rest * 8) % 8] ?? "";
  else if (rest >= 0.5) text += g.full;
  const used = [...text].length;
  const light = Math.max(0, Math.round(cells(also)) - used);
  return text + g.light.repeat(light);
}
