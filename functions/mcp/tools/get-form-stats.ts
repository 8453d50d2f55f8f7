import { z } from "zod";
import { formStats } from "../../reports/stats.ts";
import { REPORT_UI } from "../apps/ui-meta.ts";
import { includeTest, slug, where } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

const n = z.number();

export const getStatsTool = defineTool({
  name: "get_form_stats",
  title: "Form stats",
  description:
    "completion_rate = responses / starts; sparkline_7d in UTC days; change: on the week before.",
  input: z.object({ slug, include_test: includeTest, where }),
  output: z.looseObject({
    views: n,
    starts: n,
    responses: n,
    completion_rate: n,
    sparkline_7d: z.array(z.looseObject({ date: z.string(), count: n })),
    change: z.record(z.string(), z.unknown()),
  }),
  grant: { rest: "GET /api/forms/:slug/stats" },
  annotations: READ,
  meta: REPORT_UI,
  run: async (ctx, account, a) => {
    const { submissions: _alias, ...stats } = await formStats(
      ctx,
      account,
      a.slug,
      Date.now(),
      a.include_test,
      a.where,
    );
    return stats;
  },
});
