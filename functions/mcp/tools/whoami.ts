import { z } from "zod";
import { accountOverview } from "../../services/accounts.ts";
import { defineTool, READ } from "../tool.ts";

export const whoamiTool = defineTool({
  name: "whoami",
  title: "Who am I",
  description: "Your handler, form files' folder and number of forms.",
  input: z.object({}),
  output: z.object({ handler: z.string(), forms_dir: z.string(), forms: z.number() }),
  annotations: READ,
  run: (ctx, account) => accountOverview(ctx, account),
});
