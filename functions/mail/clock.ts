import type { AppContext } from "../context.ts";

/** Now, or the fixed instant FORMDOWN_NOW names (tests drive the digest scheduler with it). */
export function clockNow(ctx: AppContext): number {
  const fixed = ctx.config.now ? Date.parse(ctx.config.now) : Number.NaN;
  return Number.isFinite(fixed) ? fixed : Date.now();
}
