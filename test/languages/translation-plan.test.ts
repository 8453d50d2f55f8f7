// SPEC §20 "The plan (§16) lists translation changes": `formdown plan` and `deploy --dry-run` send
// a form's translation files as deploy does, and the plan names each language added, changed or
// dropped from `languages` (0 answers, never destructive); REST's plan and dry runs say the same.
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const event = (languages: string) => `---
title: Team event
slug: event
humanness: false
languages: [${languages}]
fields:
  - id: role
    type: radio
    label: What is your role?
    options: [Design, Engineering]
---
Tell us.
`;
const DE = `---
title: Teamveranstaltung
fields:
  role:
    label: Was ist Ihre Rolle?
    options: { Design: Gestaltung, Engineering: Technik }
---
Sagen Sie es uns.
`;
const AR = `---
title: فعالية الفريق
fields:
  role:
    label: ما هو دورك؟
    options: { Design: التصميم, Engineering: الهندسة }
---
أخبرنا.
`;
const DE_EDITED = DE.replace("Was ist Ihre Rolle?", "Ihre Rolle?").replace(
  "Technik",
  "Entwicklung",
);

let s: TestServer;
let api: ReturnType<typeof client>;
let dir = "";
const cli = (...args: string[]) =>
  runFormdown(args, {
    env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey, HOME: dir },
    cwd: dir,
  });
const file = (name: string, text: string) => writeFile(join(dir, "forms/@me", name), text);

beforeAll(async () => {
  s = await startTestServer();
  api = client(s.url, s.apiKey);
  dir = await mkdtemp(join(tmpdir(), "formdown-translation-plan-"));
  await mkdir(join(dir, "forms/@me"), { recursive: true });
  await file("event.md", event("de, ar"));
  await file("event.de.md", DE);
  await file("event.ar.md", AR);
}, 120_000);
afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the plan lists translation changes", { timeout: 120_000 }, () => {
  it("names each language of a new form as added, through formdown plan", async () => {
    const run = await cli("plan");
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain("+ translation de (5 strings)");
    expect(run.stdout).toContain("+ translation ar (5 strings)");
    expect((await cli("deploy")).code).toBe(0);
  });

  it("says which German strings changed and that Arabic was dropped, and changes nothing", async () => {
    await file("event.md", event("de"));
    await unlink(join(dir, "forms/@me/event.ar.md"));
    await file("event.de.md", DE_EDITED);
    const run = await cli("plan");
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain(
      "~ translation de: 2 strings changed (fields.role.label, fields.role.options.Engineering)",
    );
    expect(run.stdout).toContain("- translation ar");
    const dry = await cli("deploy", "--dry-run", "--json");
    expect(dry.code, dry.stderr).toBe(0);
    const [plan] = JSON.parse(dry.stdout).plans;
    expect(plan.destructive).toBe(false);
    expect(plan.changes.filter((c: { kind: string }) => c.kind.startsWith("translation"))).toEqual([
      {
        kind: "translation_changed",
        lang: "de",
        detail:
          "translation de: 2 strings changed (fields.role.label, fields.role.options.Engineering)",
        answers_affected: 0,
      },
      { kind: "translation_removed", lang: "ar", detail: "translation ar", answers_affected: 0 },
    ]);
    const live = await api("GET", "/api/forms/event?lang=de");
    expect(live.body.config.fields[0].label).toBe("Was ist Ihre Rolle?");
    expect(live.body.languages).toEqual(["en", "de", "ar"]);
  });

  it("answers the same plan over REST, and refuses a translation naming no field", async () => {
    const body = { content: event("de"), translations: { de: { content: DE_EDITED } } };
    const plan = await api("POST", "/api/forms/event/plan", { body });
    expect(plan.status).toBe(200);
    expect(plan.body.changes.map((c: { kind: string }) => c.kind)).toEqual([
      "content_changed",
      "translation_changed",
      "translation_removed",
    ]);
    const dry = await api("PUT", "/api/forms/event?dry_run=true", {
      body: { markdown: event("de"), translations: { de: { content: DE_EDITED } } },
    });
    expect(dry.body.changes).toEqual(plan.body.changes);
    const bad = DE.replace("  role:", "  rolle:\n    label: Rolle\n  role:");
    const refused = await api("POST", "/api/forms/event/plan", {
      body: { content: event("de, ar"), translations: { de: { content: bad }, ar: AR } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_failed");
    expect(refused.body.details).toEqual([
      {
        field: "translations.de.fields.rolle.label",
        message: 'forms/@me/event.de.md:5: the form has no field "rolle" (did you mean "role"?)',
      },
    ]);
  });

  it("plans a PATCH's translations as they would merge: the language given, the others kept", async () => {
    const dry = await api("PATCH", "/api/forms/event?dry_run=true", {
      body: { translations: { ar: { title: "الفعالية" } } },
    });
    expect(dry.status).toBe(200);
    expect(dry.body.changes).toEqual([
      {
        kind: "translation_changed",
        lang: "ar",
        detail: "translation ar: 5 strings changed (title, body, fields.role.label, 2 more)",
        answers_affected: 0,
      },
    ]);
  });
});
