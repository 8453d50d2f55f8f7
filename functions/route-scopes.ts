import type { AuditedOperation } from "./audit/actions.ts";
import type { Scope } from "./scopes.ts";

/** What a REST operation needs of the key, and what the audit log calls it once it succeeded. */
export interface RouteRule {
  scope: Scope;
  /** An operation on the whole account, which a key limited to forms may not do. */
  account?: true;
  audit?: AuditedOperation;
}

/** `read("responses.list")`: the scope, then the audit action, if the operation is recorded. */
const rule =
  (scope: Scope) =>
  (action?: string, more: { account?: true; form?: "answer" } = {}): RouteRule => ({
    scope,
    ...(more.account ? { account: true } : {}),
    ...(action ? { audit: { action, ...(more.form ? { form: more.form } : {}) } } : {}),
  });
const [read, write, admin] = [rule("read"), rule("write"), rule("admin")];
const ACCOUNT = { account: true } as const;

/**
 * The scope each REST operation needs (SPEC §23) and its audit action (SPEC §26: every read of
 * responses and every change), by method and route pattern exactly as the routes register them;
 * `requireKey` (auth.ts) reads it for every request with a key. An operation missing here needs
 * `admin` and all forms (closed by default), and test/security/key-scopes.test.ts fails on any
 * registered route this table does not name; test/backend/audit.test.ts on a change left
 * unrecorded. `form: "answer"` takes the audited form from the answer's `slug` (a form made by
 * the call names it nowhere else).
 */
export const ROUTE_SCOPES = {
  "GET /api/account": read(),
  "POST /api/keys": admin("key.create", ACCOUNT),
  "GET /api/keys": admin(undefined, ACCOUNT),
  "DELETE /api/keys/:id": admin("key.revoke", ACCOUNT),
  // members and their roles (SPEC §26)
  "POST /api/members": admin("member.add", ACCOUNT),
  "GET /api/members": admin(undefined, ACCOUNT),
  "DELETE /api/members/:id": admin("member.remove", ACCOUNT),
  "GET /api/audit": admin(undefined, ACCOUNT),

  // the list shows only the forms a limited key may touch (services/forms.ts)
  "GET /api/forms": read(),
  "POST /api/forms": write("form.create", { account: true, form: "answer" }),
  "GET /api/forms/:slug": read(),
  "PATCH /api/forms/:slug": write("form.update"),
  "PUT /api/forms/:slug": write("form.replace", { form: "answer" }),
  "DELETE /api/forms/:slug": admin("form.delete"),
  "POST /api/forms/:slug/publish": write("form.publish"),
  "POST /api/forms/:slug/close": write("form.close"),
  "POST /api/forms/:slug/rename": write("form.rename"),
  "PUT /api/forms/:slug/access": write("form.access"),
  "POST /api/forms/:slug/preview/rotate": write("form.preview_rotate"),
  // the one reconcile (`formdown deploy`): forms of the whole account's repository
  "POST /api/deploys": write("forms.deploy", ACCOUNT),
  "GET /api/deploys/head": read(undefined, ACCOUNT),

  "PATCH /api/forms/:slug/fields/:id": write("field.update"),
  "DELETE /api/forms/:slug/fields/:id": write("field.remove"),
  "POST /api/forms/:slug/fields/:id/move": write("field.move"),

  "GET /api/forms/:slug/versions": read(),
  "POST /api/forms/:slug/plan": read(),
  "POST /api/forms/:slug/test": read(),

  "GET /api/forms/:slug/responses": read("responses.list"),
  "GET /api/forms/:slug/submissions": read("responses.list"),
  "GET /api/forms/:slug/responses/:id{[0-9a-fA-F-]{36}}": read("responses.read"),
  "GET /api/forms/:slug/submissions/:id{[0-9a-fA-F-]{36}}": read("responses.read"),
  "GET /api/forms/:slug/responses/export": read("responses.export"),
  "GET /api/forms/:slug/submissions/export": read("responses.export"),
  "GET /api/forms/:slug/stats": read("responses.stats"),
  "GET /api/forms/:slug/report": read("responses.report"),
  // the emails due or sent hold the answers they carry (owners' notifications, respondents' copies)
  "GET /api/outbox": read("responses.outbox", ACCOUNT),
  "POST /api/outbox/test": admin("mail.test", ACCOUNT),

  "DELETE /api/forms/:slug/responses/:id": admin("responses.erase"),
  "DELETE /api/forms/:slug/submissions/:id": admin("responses.erase"),
  "DELETE /api/forms/:slug/responses": admin("responses.erase"),
  "DELETE /api/forms/:slug/submissions": admin("responses.erase"),

  // personal links (SPEC §25)
  "POST /api/forms/:slug/invites": write("invites.create"),
  "GET /api/forms/:slug/invites": read("invites.list"),
  "DELETE /api/forms/:slug/invites/:token": write("invites.revoke"),

  "POST /api/forms/:slug/webhooks": admin("webhook.add"),
  "GET /api/forms/:slug/webhooks": admin(),
  "DELETE /api/forms/:slug/webhooks/:id": admin("webhook.delete"),
  "POST /api/forms/:slug/webhooks/:id/test": admin("webhook.test"),
  "GET /api/forms/:slug/webhooks/:id/deliveries": admin(),
  "POST /api/forms/:slug/webhooks/:id/deliveries/:delivery_id/retry": admin("webhook.retry"),
} satisfies Record<string, RouteRule>;

const UNLISTED = { scope: "admin", account: true } as const;

/** The scope an operation needs; HEAD is GET's. */
export function routeScope(method: string, routePath: string): RouteRule {
  const verb = method === "HEAD" ? "GET" : method;
  return (ROUTE_SCOPES as Record<string, RouteRule>)[`${verb} ${routePath}`] ?? UNLISTED;
}
