// Personal links (SPEC §25): a form's single-use invites.
import { z } from "zod";

const str = z.string();

export const invitesBody = z.looseObject({
  emails: z.array(str).optional().describe("One invite per address, emailed through the outbox"),
  count: z.int().optional().describe("How many more links without an address"),
  expires_at: str.optional().describe("ISO timestamp after which the links are refused"),
});
export const invitesCreated = z.object({
  invites: z.array(z.object({ token: str, url: str, email: str.optional() })),
});
export const inviteList = z.object({
  invites: z.array(
    z.object({
      token: str,
      url: str,
      email: str.optional(),
      state: z.enum(["sent", "opened", "answered", "revoked", "expired"]),
      emailed: z.enum(["pending", "sent", "kept", "failed"]).optional(),
      expires_at: str.optional(),
      created_at: str,
      opened_at: str.optional(),
      answered_at: str.optional(),
    }),
  ),
});
export const inviteRevoked = z.object({ revoked: z.literal(true), token: str });
