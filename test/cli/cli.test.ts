import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const CLI = new URL("../../cli/formdown.mjs", import.meta.url).pathname;
let s: TestServer;
let home: string;
let work: string;

function formdown(
  args: string[],
  env: Record<string, string> = {},
  cwd = work,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          XDG_CONFIG_HOME: join(home, ".config"),
          FORMDOWN_URL: s.url,
          FORMDOWN_API_KEY: s.apiKey,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        });
      },
    );
  });
}

beforeAll(async () => {
  s = await startTestServer();
  home = await mkdtemp(join(tmpdir(), "formdown-home-"));
  work = await mkdtemp(join(tmpdir(), "formdown-work-"));
  await mkdir(join(work, "forms/@me"), { recursive: true });
  // product-survey lists languages: its translation files go with it (SPEC §20)
  for (const f of ["contact", "product-survey", "product-survey.de", "product-survey.ar", "quiz"])
    await copyFile(
      new URL(`../fixtures/examples/${f}.md`, import.meta.url),
      join(work, `forms/@me/${f}.md`),
    );
});
afterAll(() => s?.close());

describe("formdown CLI against a real server", () => {
  it("deploys the example forms, then lists them (table and JSON); a second deploy changes nothing", async () => {
    const files = ["forms/@me/contact.md", "forms/@me/product-survey.md", "forms/@me/quiz.md"];
    const deploy = await formdown(["deploy", ...files]);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toMatch(/created\s+contact\s+http/);
    expect((await formdown(["deploy", ...files])).stdout).toMatch(/unchanged\s+quiz/);
    const list = await formdown(["list"]);
    expect(list.stdout).toMatch(/SLUG\s+TYPE\s+STATUS/);
    expect(list.stdout).toContain("product-survey");
    const json = JSON.parse((await formdown(["list", "--json"])).stdout) as { slug: string }[];
    expect(json.map((f) => f.slug).sort()).toEqual(["contact", "product-survey", "quiz"]);
  });

  it("refuses an invalid file without deploying anything (exit 1, file:line)", async () => {
    await mkdir(join(work, "bad"), { recursive: true });
    const bad = join(work, "bad/bad.md");
    await (await import("node:fs/promises")).writeFile(
      bad,
      "---\ntitle: Bad\nslug: Bad_Slug\nfields:\n  - id: a\n    type: text\n---\n",
    );
    const res = await formdown(["deploy", bad]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`${bad}:3: slug: must be lowercase`);
    expect(res.stderr).toContain("nothing was deployed");
    expect((await formdown(["deploy", "forms/@me/quiz.md", "--dry-run"])).code).toBe(0);
  });

  it("prints submissions as JSON (all pages) and as CSV that matches the API", async () => {
    const api = client(s.url, s.apiKey);
    await api("PATCH", "/api/forms/contact", { body: { humanness: false } });
    for (let i = 0; i < 105; i++) {
      await api("POST", "/api/forms/contact/submit", {
        key: null,
        body: { fields: { name: `P${i}, "x"`, email: `p${i}@example.com`, message: `=1+${i}` } },
      });
    }
    const json = JSON.parse((await formdown(["submissions", "contact"])).stdout) as {
      id: string;
    }[];
    expect(json).toHaveLength(105);
    expect(
      JSON.parse((await formdown(["submissions", "contact", "--limit", "3"])).stdout),
    ).toHaveLength(3);
    const csv = await formdown(["submissions", "contact", "--csv"]);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(json.map((r) => r.id));
    expect(rows[0]).toMatchObject({ name: 'P104, "x"', message: "'=1+104" });
  });

  it("exports to a file, prints stats, a report, the URL and the outbox", async () => {
    const out = join(work, "contact.md");
    const exp = await formdown(["export", "contact", "--format", "markdown", "-o", out]);
    expect(exp.code).toBe(0);
    expect((await readFile(out, "utf8")).split("\n")[0]).toContain("| id | submitted_at | name |");
    expect((await formdown(["stats", "contact", "--json"])).stdout).toContain('"responses": 105');
    expect((await formdown(["report", "contact", "--period", "all"])).stdout).toContain(
      "# Contact us — responses report",
    );
    expect((await formdown(["open", "contact"])).stdout.trim()).toBe(`${s.url}/@me/contact`);
    await drainOutbox(s.ctx);
    const outbox = await formdown(["outbox"]);
    // embedded, no mail provider: nothing left the machine, and no email says sent
    const rows = outbox.stdout.split("\n").filter((l) => l.includes("owner@example.com"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain("kept, not sent");
    expect((await formdown(["export", "contact", "--format", "xls"])).code).toBe(2);
  });

  it("prints stats with a sparkline and drop-off bars: unicode in UTF-8, ASCII otherwise, no colour when piped", async () => {
    const api = client(s.url, s.apiKey);
    // the page reports each question a respondent reaches: 106 reached the name, 105 answered
    for (let i = 0; i < 106; i++)
      await api("POST", "/api/forms/contact/events", {
        key: null,
        body: { type: "progress", field: "name" },
      });
    const utf8 = await formdown(["stats", "contact"], { LANG: "C.UTF-8" });
    expect(utf8.code).toBe(0);
    expect(utf8.stdout).toMatch(/Last 7 days [▁▂▃▄▅▆▇█]{7} /);
    expect(utf8.stdout).toContain("Drop-off (reached → answered)");
    expect(utf8.stdout).toMatch(/Your name\s+█+[▏▎▍▌▋▊▉]?░*\s+106 → 105/);
    expect(utf8.stdout).toMatch(/Median time\s+no timings yet/);
    expect(utf8.stdout).not.toContain("\x1b[");
    const ascii = await formdown(["stats", "contact"], { LANG: "C" });
    expect(ascii.stdout).toMatch(/Last 7 days [_.\-~=+*#]{7} /);
    expect(ascii.stdout).toMatch(/Your name\s+#+-*\s+106 -> 105/);
    expect([...ascii.stdout].every((c) => c.charCodeAt(0) < 128)).toBe(true);
  });

  it("writes the HTML report to a file, and --open hands it to the browser", async () => {
    const file = join(work, "report.html");
    const res = await formdown(["report", "contact", "--html", "-o", file]);
    expect(res.code).toBe(0);
    const html = await readFile(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("Contact us — responses report");
    // a stand-in for xdg-open that records what it was asked to open
    const bin = await mkdtemp(join(tmpdir(), "formdown-bin-"));
    const opened = join(bin, "opened");
    await writeFile(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" > ${opened}\n`, { mode: 0o755 });
    const open = await formdown(["report", "contact", "--open"], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(open.code).toBe(0);
    const target = open.stderr.match(/Wrote (\S+)/)![1]!;
    await new Promise((r) => setTimeout(r, 300));
    expect((await readFile(opened, "utf8")).trim()).toBe(target);
    expect(await readFile(target, "utf8")).toMatch(/^<!doctype html>/);
  });

  it("manages keys, and logs in with a config file (mode 0600), the URL given without a scheme", async () => {
    const created = JSON.parse((await formdown(["keys", "create", "--name", "ci"])).stdout) as {
      id: string;
      api_key: string;
    };
    expect(created.api_key).toMatch(/^fd_/);
    expect((await formdown(["keys", "list"])).stdout).toContain("ci");
    const bare = s.url.replace(/^http:\/\//, "");
    const login = await formdown(["login", "--url", bare, "--key", created.api_key], {
      FORMDOWN_URL: "",
      FORMDOWN_API_KEY: "",
    });
    expect(login.code).toBe(0);
    const config = join(home, ".config/formdown/config.json");
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect(
      (await formdown(["list", "--json"], { FORMDOWN_URL: "", FORMDOWN_API_KEY: "" })).code,
    ).toBe(0);
    expect((await formdown(["keys", "revoke", created.id])).code).toBe(0);
    const revoked = await formdown(["list"], { FORMDOWN_URL: "", FORMDOWN_API_KEY: "" });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/^error: .*\(unauthorized\)\n$/);
  });

  it("explains the main errors in one line: no key, wrong slug, unreachable server", async () => {
    const noKey = await formdown(["list"], {
      FORMDOWN_API_KEY: "",
      HOME: work,
      XDG_CONFIG_HOME: join(work, "none"),
    });
    expect([noKey.code, noKey.stderr.trim()]).toEqual([
      1,
      "error: no API key: pass --key, set FORMDOWN_API_KEY, or run `formdown login` (unauthorized)",
    ]);
    const wrong = await formdown(["stats", "nope"]);
    expect([wrong.code, wrong.stderr.trim()]).toEqual([
      1,
      'error: No form with the slug "nope". (not_found)',
    ]);
    const down = await formdown(["list", "--url", "http://127.0.0.1:9"]);
    expect(down.stderr).toContain("cannot reach http://127.0.0.1:9");
    expect(down.stderr).not.toContain("    at ");
  });

  it("scaffolds valid form files with init, and accounts create needs the admin token", async () => {
    expect((await formdown(["init", "feedback", "--type", "survey"])).code).toBe(0);
    expect((await formdown(["validate", "forms/@me/feedback.md"])).code).toBe(0);
    expect((await formdown(["init", "feedback"])).code).toBe(1);
    const res = await formdown(["accounts", "create", "acme"], { FORMDOWN_ADMIN_TOKEN: "" });
    expect(res.code).toBe(2);
    const doctor = (await formdown(["doctor"])).stdout;
    expect(doctor).toContain("✓ API key: accepted");
    // embedded, no mail provider: doctor says the emails stay here
    expect(doctor).toContain("⚠ emails are kept, not sent");
  });
});

describe("formdown validate checks what deploy would refuse, in plain words", () => {
  const write = async (path: string, text: string) => {
    const full = join(work, path);
    await mkdir(join(full, ".."), { recursive: true });
    await (await import("node:fs/promises")).writeFile(full, text);
  };
  const form = (slug: string, extra = "") =>
    `---\ntitle: T\nslug: ${slug}\nfields:\n  - id: a\n    type: text\n${extra}---\n`;

  it("a slug that differs from the file name, a file outside forms/@<handler>/, two files with one slug", async () => {
    await write("v1/forms/@me/mismatch.md", form("different-slug"));
    await write("v1/forms/@me/one.md", form("one"));
    await write("v1/forms/@team/one.md", form("one"));
    await write("v1/elsewhere/two.md", form("two"));
    const res = await formdown(
      [
        "validate",
        "forms/@me/mismatch.md",
        "forms/@me/one.md",
        "forms/@team/one.md",
        "elsewhere/two.md",
      ],
      {},
      join(work, "v1"),
    );
    expect(res.code).toBe(1);
    expect(res.stdout.trim().split("\n")).toEqual([
      'forms/@me/mismatch.md:3: slug: "different-slug" does not match the file name mismatch.md (rename the file to different-slug.md or change the slug)',
      'forms/@team/one.md:3: slug: "one" is also the slug of forms/@me/one.md; slugs are unique',
      "elsewhere/two.md:1: a form file lives at forms/@<handler>/<slug>.md, e.g. forms/@me/two.md",
    ]);
    // deploy refuses the same file before anything reaches the server
    const deploy = await formdown(["deploy", "forms/@me/mismatch.md"], {}, join(work, "v1"));
    expect(deploy.code).toBe(1);
    expect(deploy.stderr).toContain("nothing was deployed");
  });

  it("names fields by id, words limits plainly, offers did you mean, and prints no Markdown", async () => {
    await write(
      "v2/forms/@me/typos.md",
      form(
        "typos",
        "  - id: team_size\n    type: number\n    label: How many people are on your team?\n    min: 1\n    requred: true\n  - id: stars\n    type: rating\n    max: 50\n  - id: c\n    type: txt\n",
      ),
    );
    const res = await formdown(["validate"], {}, join(work, "v2"));
    expect(res.code).toBe(1);
    expect(res.stdout).not.toContain("**");
    expect(res.stdout).not.toContain("How many people");
    expect(res.stdout.trim().split("\n")).toEqual([
      'forms/@me/typos.md:7: fields[1] (team_size): unknown key "requred" (did you mean "required"?)',
      "forms/@me/typos.md:14: fields[2] (stars).max: must be at most 10",
      'forms/@me/typos.md:16: fields[3] (c).type: unknown type "txt" (did you mean "text"?); the field types are text, email, textarea, number, radio, checkbox, select, date, image, file, rating, scale, nps, yes_no, ranking, matrix, statement',
    ]);
    const json = JSON.parse((await formdown(["validate", "--json"], {}, join(work, "v2"))).stdout);
    expect(json[0].errors[1]).toMatchObject({ path: "fields[2].max", line: 14 });
  });

  it("suggests the command and the slug a typo meant, and understands --url without a scheme", async () => {
    const cmd = await formdown(["submision", "contact"]);
    expect([cmd.code, cmd.stderr.trim()]).toEqual([
      2,
      'error: unknown command "submision" (did you mean "submissions"?) (see formdown --help)',
    ]);
    const slug = await formdown(["submissions", "contcat"]);
    expect(slug.stderr.trim()).toBe(
      'error: No form with the slug "contcat". Did you mean "contact"? (not_found)',
    );
    const port = new URL(s.url).port;
    const bare = await formdown(["list", "--json", "--url", `127.0.0.1:${port}`], {
      FORMDOWN_URL: "",
    });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('"slug": "contact"');
  });

  it("prints a command's help with its arguments given and exits 0, no unknown command", async () => {
    for (const args of [
      ["stats", "retro", "--help"],
      ["submissions", "retro", "--help"],
      ["export", "retro", "-h"],
      ["deploy", "forms/@me/contact.md", "--help"],
    ]) {
      const res = await formdown(args);
      expect([args.join(" "), res.code, res.stderr]).toEqual([args.join(" "), 0, ""]);
      expect(res.stdout).toContain(`$ formdown ${args[0]}`);
    }
  });

  it('deploys every file on a first push (the all-zeros previous commit), not "0 is not a commit"', async () => {
    const res = await formdown(["deploy", "--since", "0".repeat(40), "--dry-run"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain("is not a commit here");
    // every file is reconciled (SPEC §22): the zeros are no history, not an error
    expect(res.stderr).toMatch(/\d+ change\(s\), \d+ file\(s\) unchanged/);
    expect(res.stderr).toContain("dry run: nothing deployed");
  });
});
