import type { Scope } from "./scopes.ts";

/**
 * The scope each REST operation needs (SPEC §23), by method and route pattern exactly as the
 * routes register them; `requireKey` (auth.ts) reads it for every request with a key. An
 * operation missing here needs `admin` and all forms (closed by default), and
 * test/security/key-scopes.test.ts fails on any registered route this table does not name.
 * `account: true` marks operations on the whole account, which a key limited to forms may not do.
 */
export const ROUTE_SCOPES: Record<string, { scope: Scope; account?: true }> = {
  "GET /api/account": { scope: "read" },
  "POST /api/keys": { scope: "admin", account: true },
  "GET /api/keys": { scope: "admin", account: true },
  "DELETE /api/keys/:id": { scope: "admin", account: true },
  // members and their roles (SPEC §26)
  "POST /api/members": { scope: "admin", account: true },
  "GET /api/members": { scope: "admin", account: true },
  "DELETE /api/members/:id": { scope: "admin", account: true },
  "GET /api/audit": { scope: "admin", account: true },

  // the list shows only the forms a limited key may touch (services/forms.ts)
  "GET /api/forms": { scope: "read" },
  "POST /api/forms": { scope: "write", account: true },
  "GET /api/forms/:slug": { scope: "read" },
  "PATCH /api/forms/:slug": { scope: "write" },
  "PUT /api/forms/:slug": { scope: "write" },
  "DELETE /api/forms/:slug": { scope: "admin" },
  "POST /api/forms/:slug/publish": { scope: "write" },
  "POST /api/forms/:slug/close": { scope: "write" },
  "POST /api/forms/:slug/rename": { scope: "write" },
  "PUT /api/forms/:slug/access": { scope: "write" },
  "POST /api/forms/:slug/preview/rotate": { scope: "write" },
  // the one reconcile (`formdown deploy`): forms of the whole account's repository
  "POST /api/deploys": { scope: "write", account: true },
  "GET /api/deploys/head": { scope: "read", account: true },

  "PATCH /api/forms/:slug/fields/:id": { scope: "write" },
  "DELETE /api/forms/:slug/fields/:id": { scope: "write" },
  "POST /api/forms/:slug/fields/:id/move": { scope: "write" },

  "GET /api/forms/:slug/versions": { scope: "read" },
  "POST /api/forms/:slug/plan": { scope: "read" },
  "POST /api/forms/:slug/test": { scope: "read" },

  "GET /api/forms/:slug/responses": { scope: "read" },
  "GET /api/forms/:slug/submissions": { scope: "read" },
  "GET /api/forms/:slug/responses/:id{[0-9a-fA-F-]{36}}": { scope: "read" },
  "GET /api/forms/:slug/submissions/:id{[0-9a-fA-F-]{36}}": { scope: "read" },
  "GET /api/forms/:slug/responses/export": { scope: "read" },
  "GET /api/forms/:slug/submissions/export": { scope: "read" },
  "GET /api/forms/:slug/stats": { scope: "read" },
  "GET /api/forms/:slug/report": { scope: "read" },
  "GET /api/outbox": { scope: "read", account: true },
  "POST /api/outbox/test": { scope: "admin", account: true },

  "DELETE /api/forms/:slug/responses/:id": { scope: "admin" },
  "DELETE /api/forms/:slug/submissions/:id": { scope: "admin" },
  "DELETE /api/forms/:slug/responses": { scope: "admin" },
  "DELETE /api/forms/:slug/submissions": { scope: "admin" },

  // personal links (SPEC §25)
  "POST /api/forms/:slug/invites": { scope: "write" },
  "GET /api/forms/:slug/invites": { scope: "read" },
  "DELETE /api/forms/:slug/invites/:token": { scope: "write" },

  "POST /api/forms/:slug/webhooks": { scope: "admin" },
  "GET /api/forms/:slug/webhooks": { scope: "admin" },
  "DELETE /api/forms/:slug/webhooks/:id": { scope: "admin" },
  "POST /api/forms/:slug/webhooks/:id/test": { scope: "admin" },
  "GET /api/forms/:slug/webhooks/:id/deliveries": { scope: "admin" },
  "POST /api/forms/:slug/webhooks/:id/deliveries/:delivery_id/retry": { scope: "admin" },
};

const UNLISTED = { scope: "admin", account: true } as const;

/** The scope an operation needs; HEAD is GET's. */
export function routeScope(method: string, routePath: string): { scope: Scope; account?: true } {
  const verb = method === "HEAD" ? "GET" : method;
  return ROUTE_SCOPES[`${verb} ${routePath}`] ?? UNLISTED;
}
