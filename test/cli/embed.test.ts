import { copyFile, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const EXAMPLE = new URL("../fixtures/examples/quiz-fr.md", import.meta.url).pathname;
let s: TestServer;
let home: string;

const formdown = (args: string[]) =>
  runFormdown(args, {
    cwd: home,
    env: { HOME: home, FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
  });

beforeAll(async () => {
  s = await startTestServer();
  home = await mkdtemp(join(tmpdir(), "formdown-embed-"));
  // a form file lives under forms/@<handler>/ (deploy refuses it elsewhere)
  await mkdir(join(home, "forms/@me"), { recursive: true });
  await copyFile(EXAMPLE, join(home, "forms/@me/quiz-fr.md"));
});
afterAll(() => s?.close());

describe("formdown embed", () => {
  it("prints the snippet for a form, and says which sites may embed it", async () => {
    const deploy = await formdown(["deploy", "forms/@me/quiz-fr.md"]);
    expect(deploy.code, deploy.stderr).toBe(0);
    const res = await formdown(["embed", "quiz-fr"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `<div data-formdown="${s.url}/@me/quiz-fr"></div>\n<script src="${s.url}/embed.js" async></script>\n`,
    );
    await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: {
        title: "Partner",
        slug: "partner",
        settings: { embed_origins: ["https://partner.example"] },
        fields: [{ id: "a", type: "text" }],
      },
    });
    const limited = await formdown(["embed", "partner", "--json"]);
    expect(JSON.parse(limited.stdout)).toMatchObject({
      slug: "partner",
      embed_origins: ["https://partner.example"],
      html: expect.stringContaining(`data-formdown="${s.url}/@me/partner"`),
    });
    expect((await formdown(["embed", "partner"])).stderr).toContain("https://partner.example");
    const missing = await formdown(["embed", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*not_found/m);
  });
});
