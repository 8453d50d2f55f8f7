import { z } from "zod";
import { listForms } from "../../services/forms.ts";
import { submitUrl } from "../form-answer.ts";
import { defineTool, READ } from "../tool.ts";

const str = z.string();

export const listFormsTool = defineTool({
  name: "list_forms",
  title: "List forms",
  description: "All your forms: status, URLs, views and responses.",
  input: z.object({}),
  output: z.object({
    forms: z.array(
      z.looseObject({
        slug: str,
        title: str,
        status: str,
        public_url: str,
        submit_url: str,
        humanness: z.boolean(),
      }),
    ),
  }),
  grant: { rest: "GET /api/forms" },
  annotations: READ,
  run: async (ctx, account) => ({
    forms: await listForms(ctx, account, (summary, row) => ({
      ...summary,
      submit_url: submitUrl(ctx, row.slug),
      humanness: row.definition.humanness,
      stats: { views: summary.stats.views, responses: summary.stats.responses },
    })),
  }),
});
