// Members and their roles (SPEC §26), and the audit log of what they read and change.
import { z } from "zod";
import { ROLES } from "../scopes.ts";
import { keyCreated } from "./accounts.ts";

const str = z.string();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const role = z
  .enum(ROLES, { error: "must be owner, editor or viewer" })
  .describe("viewer reads; editor also changes forms; owner also manages keys, members, webhooks");
export const memberBody = z.object({
  email: str.trim().max(254).regex(EMAIL, { error: "must be an email address" }),
  role,
});
const member = z.object({ id: str, email: str, role, created_at: str });
export const memberCreated = z.object({
  member,
  key: keyCreated.describe("The member's first key, shown only once: its scope is the role's"),
});
export const memberList = z.object({
  members: z.array(member.extend({ keys: z.int().describe("Live keys the member holds") })),
});
export const memberRemoved = z.object({ id: str, keys_revoked: z.int() });
