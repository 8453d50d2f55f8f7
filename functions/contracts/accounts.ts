// Accounts and API keys (SPEC §3).
import { z } from "zod";

const str = z.string();
export const accountBody = z.object({ handler: str, email: str.optional() });
export const accountCreated = z.object({ account_id: str, handler: str, api_key: str });
export const keyList = z.object({ keys: z.array(z.looseObject({})) });
export const keyBody = z.object({ name: str.optional() });
export const keyCreated = z.object({
  id: str,
  api_key: str,
  prefix: str,
  name: z.unknown(),
  created_at: str,
});
