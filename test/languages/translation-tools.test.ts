// SPEC §20's last bullet through MCP (a real SDK client) and REST, on PGlite and Postgres: an
// agent reads a form's German file, edits one label and deploys that file alone; get_form and the
// German page show it. create_form and update_form take translations and write the files; a
// translation naming no field is refused, naming it, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const EVENT = `---
title: Team event
humanness: false
languages: [de]
fields:
  - id: role
    type: radio
    label: What is your role?
    options: [Design, Engineering]
---
Tell us.
`;
const DE = {
  title: "Teamveranstaltung",
  body: "Sagen Sie es uns.",
  fields: { role: { label: "Was ist Ihre Rolle?", options: { Design: "Gestaltung" } } },
};

for (const kind of DB_KINDS) {
  describe(`translation files over MCP and REST (${kind})`, { timeout: 120_000 }, () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    let agent: Agent;

    beforeAll(async () => {
      await ensurePagesBuilt();
      s = await startTestServer({ db: kind });
      api = client(s.url, s.apiKey);
      agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    }, 300_000);
    afterAll(async () => {
      await agent?.close();
      await s?.close();
    });

    it("create_form takes translations as strings and writes the file, read back by lang", async () => {
      const created = await agent.call("create_form", {
        markdown: EVENT.replace("---\n", "---\nslug: event\n"),
        translations: { de: DE },
      });
      expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
      const file = await agent.call("get_form_file", { slug: "event", lang: "de" });
      expect(file.structuredContent).toMatchObject({
        slug: "event",
        path: "forms/@me/event.de.md",
      });
      expect(file.structuredContent.content).toContain("label: Was ist Ihre Rolle?");
      expect(await s.ctx.repo.read("forms/@me/event.de.md")).toBe(file.structuredContent.content);
      const other = await agent.call("get_form_file", { slug: "event", lang: "fr" });
      expect(other.structuredContent).toMatchObject({ code: "invalid_param" });
    });

    it("deploys one edited German file: get_form and the German page show the new label", async () => {
      const { content } = (await agent.call("get_form_file", { slug: "event", lang: "de" }))
        .structuredContent;
      const edited = content.replace("Was ist Ihre Rolle?", "Welche Rolle haben Sie?");
      const dry = await agent.call("deploy_form", {
        slug: "event",
        lang: "de",
        content: edited,
        dry_run: true,
      });
      expect(dry.structuredContent.result).toBe("planned");
      expect(dry.structuredContent.plan.changes).toEqual([
        {
          kind: "translation_changed",
          lang: "de",
          detail: "translation de: 1 string changed (fields.role.label)",
          answers_affected: 0,
        },
      ]);
      const done = await agent.call("deploy_form", { slug: "event", lang: "de", content: edited });
      expect(done.isError, JSON.stringify(done.structuredContent)).toBeFalsy();
      expect(done.structuredContent).toMatchObject({
        result: "updated",
        slug: "event",
        path: "forms/@me/event.de.md",
        url: `${s.url}/@me/event/de`,
      });
      expect(await s.ctx.repo.read("forms/@me/event.de.md")).toBe(edited);
      const form = await agent.call("get_form", { slug: "event", lang: "de" });
      expect(form.structuredContent.config.fields[0].label).toBe("Welche Rolle haben Sie?");
      // the form itself is as it was
      expect((await api("GET", "/api/forms/event")).body.config.fields[0].label).toBe(
        "What is your role?",
      );
      const page = await fetch(`${s.url}/@me/event/de`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Welche Rolle haben Sie?");
    });

    it("refuses a translation whose key names no field, naming it, and keeps the file", async () => {
      const before = await s.ctx.repo.read("forms/@me/event.de.md");
      const bad = `${before!.replace("fields:\n", "fields:\n  rolle:\n    label: Rolle\n")}`;
      const refused = await agent.call("deploy_form", { slug: "event", lang: "de", content: bad });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.code).toBe("validation_failed");
      expect(refused.structuredContent.details[0].field).toBe("translations.de.fields.rolle.label");
      expect(refused.structuredContent.details[0].message).toContain('no field "rolle"');
      expect(await s.ctx.repo.read("forms/@me/event.de.md")).toBe(before);
      const created = await agent.call("create_form", {
        markdown: EVENT.replace("---\n", "---\nslug: event-two\n"),
        translations: { de: { fields: { rolle: { label: "Rolle" } } } },
      });
      expect(created.structuredContent.code).toBe("validation_failed");
      expect(created.structuredContent.details[0].field).toBe("translations.de.fields.rolle.label");
      expect((await api("GET", "/api/forms/event-two")).status).toBe(404);
    });

    it("update_form and REST PATCH replace the languages given; REST POST creates with them", async () => {
      const updated = await agent.call("update_form", {
        slug: "event",
        patch: { translations: { de: { ...DE, title: "Das Teamfest" } } },
      });
      expect(updated.isError, JSON.stringify(updated.structuredContent)).toBeFalsy();
      expect(
        (await agent.call("get_form", { slug: "event", lang: "de" })).structuredContent,
      ).toMatchObject({ config: { title: "Das Teamfest" } });
      expect(await s.ctx.repo.read("forms/@me/event.de.md")).toContain("title: Das Teamfest");
      const patched = await api("PATCH", "/api/forms/event", {
        body: { translations: { de: { content: "---\ntitle: Fest\n---\n" } } },
      });
      expect(patched.status).toBe(200);
      expect((await api("GET", "/api/forms/event?lang=de")).body.config.title).toBe("Fest");
      const posted = await api("POST", "/api/forms", {
        body: {
          markdown: EVENT.replace("---\n", "---\nslug: event-rest\n"),
          translations: { de: DE },
        },
      });
      expect(posted.status).toBe(201);
      expect(await s.ctx.repo.read("forms/@me/event-rest.de.md")).toContain("Teamveranstaltung");
      expect((await api("GET", "/api/forms/event-rest?lang=de")).body.config.title).toBe(
        "Teamveranstaltung",
      );
    });
  });
}
