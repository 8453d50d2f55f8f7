import { z } from "zod";
import { accessModes, accessPassword } from "../../contracts/common.ts";
import { updateAccess } from "../../services/access.ts";
import { slug } from "../args.ts";
import { submitFacts } from "../form-answer.ts";
import { defineTool, WRITE } from "../tool.ts";

export const updateAccessTool = defineTool({
  name: "update_form_access",
  title: "Set who may respond",
  description:
    "public, link (public_url gets ?access=<token>), password, invite (create_invites) or closed. rotate: new token, old link stops.",
  input: z.object({
    slug,
    mode: accessModes,
    password: accessPassword.optional(),
    rotate: z.boolean().optional(),
  }),
  output: z.object({
    public_url: z.string(),
    access_token: z.string().optional(),
    submit_url: z.string(),
    humanness: z.boolean(),
  }),
  grant: { rest: "PUT /api/forms/:slug/access" },
  annotations: { ...WRITE, destructiveHint: true },
  run: async (ctx, account, args) => ({
    ...(await updateAccess(ctx, account, args.slug, args)),
    ...(await submitFacts(ctx, account, args.slug)),
  }),
});
