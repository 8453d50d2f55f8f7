import { z } from "zod";
import { createInvites, MAX_INVITES } from "../../services/invites.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const createInvitesTool = defineTool({
  name: "create_invites",
  title: "Create invites",
  description:
    "Single-use links (?invite=), one per address in emails (emailed) plus count more; with access invite (update_form_access) only they answer, once each.",
  input: z.object({
    slug,
    emails: z.array(z.string()).optional(),
    count: z.number().int().min(0).max(MAX_INVITES).optional(),
    expires_at: z.string().optional(),
  }),
  output: z.object({
    invites: z.array(
      z.looseObject({ token: z.string(), url: z.string(), email: z.string().optional() }),
    ),
  }),
  // it emails the addresses it is given
  grant: { rest: "POST /api/forms/:slug/invites" },
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) => createInvites(ctx, account, a.slug, a),
});
