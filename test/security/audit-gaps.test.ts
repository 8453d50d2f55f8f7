// Ninth review, part B: every read of responses and every change is in the audit log (SPEC §26).
// Two paths were not: `GET /api/outbox` (a `read` key, so a viewer) lists the emails due or sent
// with their text, which holds every answer an owner's notification or a respondent's copy
// carries; and a submit sent with a `write` key (an editor's), a test answer or with
// `test: false` a real one past the anti-bot check, left no row where MCP `try_form` leaves one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)(
  "reads and changes the audit log missed (%s)",
  { timeout: 120_000 },
  (kind) => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    const member = { viewer: "", editor: "" };
    const rows = (action: string) =>
      s.ctx.db.query<{ actor: string; form: string | null; detail: Record<string, unknown> }>(
        "select actor, form, detail from audit_log where action = $1 order by at, id",
        [action],
      );

    beforeAll(async () => {
      s = await startTestServer({ db: kind });
      api = client(s.url, s.apiKey);
      const made = await api("POST", "/api/forms", {
        body: {
          title: "Clinic",
          slug: "clinic",
          humanness: true,
          notifications: { email: ["owner@example.com"], respondent: { email_field: "mail" } },
          fields: [
            { id: "condition", type: "text" },
            { id: "mail", type: "email" },
          ],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      for (const role of ["viewer", "editor"] as const) {
        const added = await api("POST", "/api/members", {
          body: { email: `${role}@example.com`, role },
        });
        member[role] = added.body.key.api_key;
      }
    });
    afterAll(() => s?.close());

    it("records an editor's keyed submit, test or real, as try_form's", async () => {
      const editor = client(s.url, member.editor);
      const real = await editor("POST", "/api/forms/clinic/submit", {
        body: {
          fields: { condition: "private diagnosis", mail: "patient@example.org" },
          test: false,
        },
      });
      expect(real.status, JSON.stringify(real.body)).toBe(201);
      const trial = await editor("POST", "/api/forms/clinic/submit", {
        body: { fields: { condition: "a try" } },
      });
      expect(trial.status).toBe(201);
      const tried = await rows("form.try");
      expect(tried).toEqual([
        { actor: "editor@example.com", form: "clinic", detail: { test: false } },
        { actor: "editor@example.com", form: "clinic", detail: {} },
      ]);
    });

    it("records a viewer's read of the outbox, whose emails carry the answers", async () => {
      await drainOutbox(s.ctx, 10);
      const read = await client(s.url, member.viewer)("GET", "/api/outbox");
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body.emails)).toContain("private diagnosis");
      expect(await rows("responses.outbox")).toEqual([
        { actor: "viewer@example.com", form: null, detail: {} },
      ]);
    });
  },
);
