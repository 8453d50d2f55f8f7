import { ROUTE_SCOPES } from "../route-scopes.ts";

/**
 * What the audit log calls an operation it records (SPEC §26): declared with each REST operation
 * (route-scopes.ts), each MCP tool (its `grant`) and each page of `/results` below.
 */
export interface AuditedOperation {
  action: string;
  form?: "answer";
}

const read = (action: string): AuditedOperation => ({ action });

/** The REST operations recorded, as route-scopes.ts declares each with its scope. */
export const ROUTE_ACTIONS: Record<string, AuditedOperation> = Object.fromEntries(
  Object.entries(ROUTE_SCOPES).flatMap(([route, { audit }]) => (audit ? [[route, audit]] : [])),
);

/** The pages of `/results` (functions/results/routes.ts) that read responses or change a form. */
export const RESULTS_ACTIONS: Record<string, AuditedOperation> = {
  "GET /results/forms/:slug/responses": read("responses.list"),
  "GET /results/forms/:slug/responses/:id": read("responses.read"),
  "GET /results/forms/:slug/export": read("responses.export"),
  "GET /results/forms/:slug/report": read("responses.report"),
  "POST /results/forms/:slug/close": { action: "form.access" },
};
