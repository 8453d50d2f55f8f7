// Accounts and API keys (SPEC §3).
import { z } from "zod";

const str = z.string();
export const accountBody = z.object({ handler: str, email: str.optional() });
export const accountCreated = z.object({ account_id: str, handler: str, api_key: str });
/** What a key may do (SPEC §23): `read` < `write` < `admin`; without `forms`, every form. */
const scopes = z.array(z.enum(["read", "write", "admin"])).min(1);
const forms = z.array(str).min(1).max(100).nullable();
export const keyList = z.object({
  keys: z.array(z.looseObject({ scopes: scopes.optional(), forms: forms.optional() })),
});
export const keyBody = z.object({
  name: str.optional(),
  scopes: scopes.optional(),
  forms: forms.optional(),
  member_id: str
    .describe("Make the key for this member (SPEC §26): its scopes at most the member's role's")
    .optional(),
});
export const keyCreated = z.object({
  id: str,
  api_key: str,
  prefix: str,
  name: z.unknown(),
  scopes,
  forms,
  created_at: str,
  member_id: str.nullable().describe("The member the key belongs to (SPEC §26)").optional(),
});
export const overview = z.object({ handler: str, forms_dir: str, forms: z.int() });
