import { execFileSync } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubRepository } from "../../functions/repo/github.ts";
import { startGithubFake } from "../fakes/github.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let client: Client;
beforeAll(async () => {
  s = await startTestServer();
  client = new Client(
    { name: "agent", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

const call = async (name: string, args: object) => {
  const res = await client.callTool({ name, arguments: args as Record<string, unknown> });
  return res as {
    isError?: boolean;
    structuredContent: Record<string, any>;
    content: { text: string }[];
  };
};

const file = `---
title: Team lunch
slug: team-lunch
humanness: false
fields:
  - id: dish
    type: radio
    label: What should we order?
    options: [Pizza, Sushi, Tacos]
    required: true
  - id: budget
    type: number
    label: Budget per person
---

Vote by Friday.
`;

describe("an agent takes a form from idea to analysed responses over MCP alone", () => {
  it("deploys a form file (committed to git), which respondents can answer, then reads everything back", async () => {
    const checked = await call("validate_form", { markdown: file });
    expect(checked.structuredContent.valid).toBe(true);
    const deployed = await call("deploy_form", { path: "forms/@me/team-lunch.md", content: file });
    expect(deployed.isError).toBeFalsy();
    expect(deployed.structuredContent).toMatchObject({
      slug: "team-lunch",
      public_url: `${s.url}/@me/team-lunch`,
    });
    expect(
      execFileSync("git", [
        "-C",
        s.repoDir,
        "log",
        "--format=%s",
        "--",
        "forms/@me/team-lunch.md",
      ]).toString(),
    ).toContain("Deploy form team-lunch");
    expect(
      execFileSync("git", ["-C", s.repoDir, "show", "HEAD:forms/@me/team-lunch.md"]).toString(),
    ).toBe(file);
    expect((await fetch(`${s.url}/api/forms/team-lunch/public`)).status).toBe(200);
    const again = await call("deploy_form", { path: "forms/@me/team-lunch.md", content: file });
    expect(again.structuredContent.result).toBe("unchanged");

    for (const [dish, budget] of [
      ["Pizza", 12],
      ["Sushi", 20],
      ["Pizza", 10],
    ] as const) {
      const res = await fetch(`${s.url}/api/forms/team-lunch/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fields: { dish, budget } }),
      });
      expect(res.status).toBe(201);
    }
    const added = await call("add_field", {
      slug: "team-lunch",
      field: { id: "notes", type: "textarea", label: "Anything else?" },
    });
    expect(added.structuredContent.config.fields).toHaveLength(3);
    const list = await call("list_responses", { slug: "team-lunch", limit: 2 });
    expect(list.structuredContent).toMatchObject({ page: 1, limit: 2, total: 3 });
    const latest = await call("get_responses", { slug: "team-lunch", limit: 1 });
    expect(latest.structuredContent.responses[0].payload).toEqual({ dish: "Pizza", budget: 10 });
    const one = await call("get_response", {
      slug: "team-lunch",
      response_id: latest.structuredContent.responses[0].id,
    });
    expect(one.structuredContent.payload.dish).toBe("Pizza");
    const stats = await call("get_form_stats", { slug: "team-lunch" });
    expect(stats.structuredContent.responses).toBe(3);
    const report = await call("get_response_report", { slug: "team-lunch", period: "all" });
    expect(report.structuredContent.period).toBe("all");
    expect(report.structuredContent.markdown).toContain("| Pizza | 2 | 67% |");
    // the HTML report, sent once (its own content block), with the numbers as data
    const page = await call("get_response_report", {
      slug: "team-lunch",
      period: "all",
      format: "html",
    });
    expect(page.structuredContent).toMatchObject({ period: "all", format: "html" });
    expect(page.structuredContent.summary.responses).toBe(3);
    expect(page.structuredContent).not.toHaveProperty("html");
    expect(page.content).toHaveLength(2);
    const html = page.content[1]!.text;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("2 · 67%");
    const csv = await call("export_responses", { slug: "team-lunch", format: "csv" });
    expect(csv.structuredContent.content.split("\r\n")[0]).toBe(
      "id,submitted_at,dish,budget,notes",
    );
    const forms = await call("list_forms", {});
    expect(forms.structuredContent.forms.map((f: { slug: string }) => f.slug)).toContain(
      "team-lunch",
    );
    const access = await call("update_form_access", { slug: "team-lunch", mode: "link" });
    expect(access.structuredContent.public_url).toContain("?access=");
  });

  it("creates forms from JSON too, and every change lands in git", async () => {
    const created = await call("create_form", {
      definition: { title: "Ping", slug: "ping", fields: [{ id: "ok", type: "yes_no" }] },
    });
    expect(created.structuredContent.status).toBe("live");
    await call("update_form", { slug: "ping", patch: { title: "Ping?" } });
    const log = execFileSync("git", ["-C", s.repoDir, "log", "--format=%s"]).toString();
    expect(log).toContain("Create form ping");
    expect(log).toContain("Update form ping");
    const detail = await call("get_form", { slug: "ping" });
    expect(detail.structuredContent.commit_sha).toBe(
      execFileSync("git", ["-C", s.repoDir, "rev-parse", "HEAD"]).toString().trim(),
    );
    const dup = await call("create_form", {
      definition: { title: "Ping", slug: "ping", fields: [{ id: "ok", type: "yes_no" }] },
    });
    expect(dup.structuredContent.code).toBe("conflict");
  });

  it("refuses traversal, paths outside forms/ and another account's folder", async () => {
    for (const path of [
      "forms/@me/../../etc/passwd.md",
      "src/pages/x.md",
      "forms/@someone/x.md",
      "/forms/@me/x.md",
    ]) {
      const res = await call("deploy_form", { path, content: file });
      expect(res.isError, path).toBe(true);
      expect(["invalid_request", "forbidden"]).toContain(res.structuredContent.code);
    }
  });
});

describe("the GitHub form repository", () => {
  it("creates, updates and deletes files through the contents API with the real Octokit", async () => {
    const fake = await startGithubFake("acme", "forms");
    try {
      const repo = githubRepository({
        token: "ghp_test",
        repository: "acme/forms",
        apiUrl: fake.url,
      });
      const first = await repo.write("forms/@acme/a.md", "one", "Create form a");
      expect(first.sha).toMatch(/^c/);
      expect(await repo.read("forms/@acme/a.md")).toBe("one");
      await repo.write("forms/@acme/a.md", "two", "Update form a");
      expect((await repo.write("forms/@acme/a.md", "two", "Update form a")).sha).toBeNull();
      expect(await repo.list("forms")).toEqual(["forms/@acme/a.md"]);
      await repo.remove("forms/@acme/a.md", "Delete form a");
      expect(await repo.read("forms/@acme/a.md")).toBeNull();
      expect(fake.commits.map((c) => c.message)).toEqual([
        "Create form a",
        "Update form a",
        "Delete form a",
      ]);
    } finally {
      await fake.close();
    }
  });
});
