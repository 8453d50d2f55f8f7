import { z } from "zod";
import { listAudit } from "../../audit/list.ts";
import { auditQuery } from "../../contracts/audit.ts";
import { parseQuery } from "../../contracts/common.ts";
import { defineTool, READ } from "../tool.ts";

const text = z.string().optional();

/**
 * The audit log (SPEC §26) as GET /api/audit answers it, its arguments checked by that query.
 * Few bytes (tools/list's 20,000): the 50 newest, older ones through `until`.
 */
export const listAuditTool = defineTool({
  name: "list_audit",
  title: "Audit log",
  description: "Who read responses or changed what, when; newest 50 (older: until).",
  input: z.object({
    form: text,
    action: text.describe("responses.export, or all responses.*: responses"),
    since: text,
    until: text,
  }),
  output: z.object({ entries: z.array(z.looseObject({})) }),
  grant: { rest: "GET /api/audit" },
  annotations: READ,
  run: (ctx, account, a) => listAudit(ctx, account, parseQuery(auditQuery, a)),
});
