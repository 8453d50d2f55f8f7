import { z } from "zod";
import { createInvites } from "../../services/invites.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const createInvitesTool = defineTool({
  name: "create_invites",
  title: "Create invites",
  description:
    "Single-use links: one per email (sent) plus count more; access invite: only they answer.",
  input: z.object({
    slug,
    emails: z.array(z.string()).optional(),
    count: z.number().int().optional(),
    expires_at: z.string().optional(),
  }),
  output: z.object({ invites: z.array(z.looseObject({ url: z.string() })).optional() }),
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) => createInvites(ctx, account, a.slug, a),
});
