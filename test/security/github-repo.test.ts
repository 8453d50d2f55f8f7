// A GitHub-backed repository (functions/repo/github.ts) at start-up: a listing that failed (an
// outage, a rate limit, a revoked token) read as an empty forms folder, and the reconcile that
// follows closes the forms whose files are gone: every form the repository gave, of every
// account, closed by one failed request. A failed listing now throws, start-up logs it and the
// stored forms stay as they were; a folder the contents API would cut at 1,000 entries throws too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { githubRepository } from "../../functions/repo/github.ts";
import { startGithubFake } from "../fakes/github.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const FILE = `---
title: From GitHub
slug: gh
humanness: false
fields:
  - {id: name, type: text, label: Name}
---
`;

describe.each(DB_KINDS)("a GitHub-backed repository (%s)", (kind) => {
  let s: TestServer;
  let fake: Awaited<ReturnType<typeof startGithubFake>>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    fake = await startGithubFake("acme", "forms");
    s.ctx.repo = githubRepository({
      token: "ghp_test",
      repository: "acme/forms",
      apiUrl: fake.url,
    });
    s.ctx.config.githubRepository = "acme/forms";
  });
  afterAll(async () => {
    await fake?.close();
    await s?.close();
  });

  it("keeps the forms open when GitHub cannot be read", async () => {
    fake.files.set("forms/@me/gh.md", { content: FILE, sha: "b1" });
    const first = await reconcileRepository(s.ctx);
    expect(first.deployed).toEqual(["forms/@me/gh.md"]);
    const api = client(s.url, s.apiKey);
    expect((await api("GET", "/api/forms/gh")).body.status).toBe("live");
    fake.outage.down = true;
    try {
      await expect(reconcileRepository(s.ctx)).rejects.toThrow(/Service unavailable/);
    } finally {
      fake.outage.down = false;
    }
    expect((await api("GET", "/api/forms/gh")).body.status).toBe("live");
    // a folder that is not there is still an empty one
    expect(await s.ctx.repo.list("nothing-here")).toEqual([]);
  });

  it("refuses to list a folder the contents API would cut at 1,000 entries", async () => {
    for (let i = 0; i < 1000; i++)
      fake.files.set(`many/@x/f${i}.md`, { content: "", sha: `s${i}` });
    await expect(s.ctx.repo.list("many")).rejects.toThrow(/1,000 entries/);
  });
});
