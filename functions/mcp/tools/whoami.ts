import { z } from "zod";
import { accountOverview } from "../../services/accounts.ts";
import { defineTool, READ } from "../tool.ts";

export const whoamiTool = defineTool({
  name: "whoami",
  title: "Who am I",
  description: "Your handler, forms folder and form count.",
  input: z.object({}),
  output: z.object({ handler: z.string(), forms_dir: z.string(), forms: z.number() }),
  grant: { rest: "GET /api/account" },
  annotations: READ,
  run: (ctx, account) => accountOverview(ctx, account),
});
