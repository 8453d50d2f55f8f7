// SPEC §15 end to end: author files in a real git repository go through every kind of deploy
// byte for byte, and a PATCH / update_form / add_field changes only the lines it changes.
import { execFileSync } from "node:child_process";
import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { BUNDLED_EXAMPLES } from "../../src/core/bundled-examples.ts";
import { isTranslationFile } from "../../src/core/translation-file.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const fixtures = new URL("../fixtures/", import.meta.url).pathname;
let s: TestServer;
let api: ReturnType<typeof client>;
let mcp: Client;
let names: string[] = [];
const originals = new Map<string, string>();

const git = (...args: string[]) =>
  execFileSync("git", ["-C", s.repoDir, "-c", "user.name=A", "-c", "user.email=a@x", ...args])
    .toString()
    .trim();
const head = () => git("rev-parse", "HEAD");
const file = (slug: string) => readFile(join(s.repoDir, `forms/@me/${slug}.md`), "utf8");
/** The last commit's diff: files, and the changed lines without context. */
const lastChange = () => {
  const stat = git("diff", "--shortstat", "HEAD~1", "HEAD");
  const hunks = git("diff", "-U0", "HEAD~1", "HEAD")
    .split("\n")
    .filter((l) => l.startsWith("@@"));
  const lines = git("diff", "-U0", "HEAD~1", "HEAD")
    .split("\n")
    .filter((l) => /^[-+](?![-+]{2} )/.test(l));
  return { stat, hunks, lines };
};
const isExample = (path: string) => (BUNDLED_EXAMPLES as readonly string[]).includes(path);
const tool = async (name: string, args: object) => {
  const res = (await mcp.callTool({ name, arguments: args as Record<string, unknown> })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(res.isError, res.content[0]?.text).toBeFalsy();
  return res;
};

beforeAll(async () => {
  s = await startTestServer();
  api = client(s.url, s.apiKey);
  const dir = join(s.repoDir, "forms/@me");
  for (const sub of ["examples", "authored"])
    await cp(join(fixtures, sub), dir, { recursive: true });
  names = (await readdir(dir))
    .filter((n) => n.endsWith(".md") && !isTranslationFile(n))
    .map((n) => n.slice(0, -3));
  for (const n of names) originals.set(n, await file(n));
  git("add", "-A");
  git("commit", "-qm", "Forms written by hand");
  mcp = new Client({ name: "t", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

describe("the file is the author's", () => {
  it("the start-up deploy, a CLI deploy and deploy_form leave every file byte for byte and commit nothing", async () => {
    const before = head();
    const startup = await reconcileRepository(s.ctx);
    expect(startup.invalid).toEqual([]);
    // a repository with forms of its own: files at the bundled examples' paths are not deployed
    // at start-up (SPEC §17); deployed by hand, they are the author's files like the rest
    const examples = names.filter((n) => isExample(`forms/@me/${n}.md`));
    expect(examples.length).toBeGreaterThan(0);
    expect(startup.deployed).toHaveLength(names.length - examples.length);
    for (const n of examples) {
      const res = await api("PUT", `/api/forms/${n}`, { body: { markdown: originals.get(n) } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    for (const n of names) {
      const res = await api("PUT", `/api/forms/${n}`, { body: { markdown: originals.get(n) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.result).toBe("unchanged");
      await tool("deploy_form", { path: `forms/@me/${n}.md` });
      await tool("deploy_form", { path: `forms/@me/${n}.md`, content: originals.get(n) });
    }
    expect(head()).toBe(before);
    expect(git("status", "--porcelain")).toBe("");
    for (const n of names) expect(await file(n)).toBe(originals.get(n));
  });

  it.each(["contact", "product-survey", "quiz", "team-lunch", "feedback", "signup"])(
    "a PATCH of %s's title is one changed line in one hunk",
    async (slug) => {
      const res = await api("PATCH", `/api/forms/${slug}`, { body: { title: "Renamed by PATCH" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const change = lastChange();
      expect(change.stat).toBe("1 file changed, 1 insertion(+), 1 deletion(-)");
      expect(change.hunks).toHaveLength(1);
      expect(change.lines[1]).toMatch(/^\+title: .*Renamed by PATCH/);
    },
  );

  it("MCP update_form and add_field on a hand-written file: one hunk each, comments kept", async () => {
    const before = await file("team-lunch");
    const form = (await api("GET", "/api/forms/team-lunch")).body.config;
    const fields = structuredClone(form.fields);
    fields[1].max = 20;
    await tool("update_form", { slug: "team-lunch", patch: { fields } });
    let change = lastChange();
    expect(change.hunks).toHaveLength(1);
    expect(change.lines).toEqual([
      "-    max: 12      # the big room seats twelve",
      "+    max: 20      # the big room seats twelve",
    ]);
    await tool("add_field", {
      slug: "team-lunch",
      field: { id: "diet", type: "checkbox", label: "Dietary needs", options: ["Vegan", "Halal"] },
    });
    change = lastChange();
    expect(change.hunks).toHaveLength(1);
    expect(change.lines.every((l) => l.startsWith("+"))).toBe(true);
    const after = await file("team-lunch");
    const comments = (t: string) => t.split("\n").filter((l) => l.includes("#"));
    expect(comments(after)).toEqual(comments(before).map((l) => l.replace("max: 12 ", "max: 20 ")));
  });

  it("a form created over REST gets a minimal file, and its later PATCH is one hunk", async () => {
    const res = await api("POST", "/api/forms", {
      body: {
        title: "Made over REST",
        slug: "rest-made",
        fields: [
          { id: "q", type: "text", label: "Question", required: false, max_length: 10000 },
          { id: "s", type: "scale", label: "Scale", show_if: { field: "q", op: "neq", value: "" } },
        ],
      },
    });
    expect(res.status).toBe(201);
    const text = await file("rest-made");
    for (const noise of ["humanness", "access", "points", "max_length", "required", "quiz", "step"])
      expect(text).not.toContain(noise);
    expect(text).toContain('show_if: { field: q, op: neq, value: "" }');
    await api("PATCH", "/api/forms/rest-made", { body: { settings: { progress_bar: true } } });
    const change = lastChange();
    expect(change.hunks).toHaveLength(1);
    expect(change.lines).toEqual(["+settings:", "+  progress_bar: true"]);
  });

  it("a deploy from elsewhere writes the author's text as it is, never a re-printed one", async () => {
    const text = `${originals.get("signup")!.replace('"Beta signup"', '"Beta signup (2)"')}`;
    const res = await api("PUT", "/api/forms/signup", { body: { markdown: text } });
    expect(res.body.result).toBe("updated");
    expect(await file("signup")).toBe(text);
  });
});
