import { z } from "zod";
import { formStats } from "../../insights/stats.ts";
import { REPORT_UI } from "../apps/ui-meta.ts";
import { includeTest, slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

const n = z.number();

export const getStatsTool = defineTool({
  name: "get_form_stats",
  title: "Form stats",
  description:
    "Views, starts, responses, completion_rate (responses / starts), a 7-day sparkline (UTC) and the change on the week before.",
  input: z.object({ slug, include_test: includeTest }),
  output: z.looseObject({
    views: n,
    starts: n,
    responses: n,
    completion_rate: n,
    sparkline_7d: z.array(z.looseObject({ date: z.string(), count: n })),
    change: z.record(z.string(), z.unknown()),
  }),
  annotations: READ,
  meta: REPORT_UI,
  run: async (ctx, account, a) => {
    const { submissions: _alias, ...stats } = await formStats(
      ctx,
      account,
      a.slug,
      Date.now(),
      a.include_test,
    );
    return stats;
  },
});
