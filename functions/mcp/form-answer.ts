import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { ownedFormHead } from "../services/form-view.ts";

/** Where respondents (or a script acting for them) POST answers. */
export const submitUrl = (ctx: AppContext, slug: string) =>
  `${ctx.config.baseUrl}/api/forms/${slug}/submit`;

/** `submit_url` and `humanness` for a form whose answer does not carry its definition. */
export async function submitFacts(ctx: AppContext, account: Account, slug: string) {
  const row = await ownedFormHead(ctx, account, slug);
  return { submit_url: submitUrl(ctx, slug), humanness: row.definition.humanness };
}

/**
 * A form detail as MCP answers it: the REST detail plus how respondents submit, with one name
 * per thing (stats count `responses`; REST's `submissions` alias is left out).
 */
export function detailAnswer(
  ctx: AppContext,
  detail: {
    slug: string;
    config: { humanness: boolean };
    stats: { views: number; responses: number };
  },
) {
  return {
    ...detail,
    submit_url: submitUrl(ctx, detail.slug),
    humanness: detail.config.humanness,
    stats: { views: detail.stats.views, responses: detail.stats.responses },
  };
}
