// The audit log (SPEC §26): every read of responses and every change, who, what, when, from where.
import { z } from "zod";
import { limit, range, whole } from "./common.ts";

const str = z.string();

export const auditQuery = {
  ...range,
  form: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, { error: "must be a form slug" })
    .optional()
    .describe("Only what touched this form (by slug)"),
  action: z
    .string()
    .regex(/^[a-z_]{1,40}(\.[a-z_]{1,40})?$/, {
      error: "must be an action such as responses.export",
    })
    .optional()
    .describe("One action (responses.export) or a family (responses, form, member, key, webhook)"),
  page: whole(1, 1_000_000, 1),
  limit: limit(),
};

export const auditEntry = z.object({
  id: str,
  at: str,
  actor: z
    .object({ name: str, key_id: str.nullable(), member_id: str.nullable() })
    .describe("The key that acted and its member (the member's email, else the key's name)"),
  action: str.describe("responses.list, responses.read, responses.export, form.update, …"),
  form: str.nullable(),
  detail: z.record(str, z.unknown()).describe("The call's parameters (ids, format, where, …)"),
  ip: str.nullable(),
});
export const auditPage = z.object({
  entries: z.array(auditEntry),
  page: z.int(),
  limit: z.int(),
  total: z.int(),
});
