// Fourth review, 2026-11-28: the local repository read and wrote form files through symbolic
// links. A link committed into the forms folder (`forms/@me/leak.md -> /outside/form.md`, or a
// linked handler folder) was read at start-up and by a deploy by path as that account's file,
// and a deploy with content wrote through it: a file outside the repository (or another
// account's file) took the form's text. A path with a link on its way is now no file: not
// listed, read as missing, and refused (409) when written or removed.
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const FORM = (slug: string, title: string) =>
  `---\ntitle: ${title}\nslug: ${slug}\nfields:\n  - { id: q, type: text, label: Q }\n---\n`;

describe.each(DB_KINDS)("symbolic links in the forms folder (%s)", (kind) => {
  let s: TestServer;
  let outside: string;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    outside = await mkdtemp(join(tmpdir(), "formdown-outside-"));
    await writeFile(join(outside, "leak.md"), FORM("leak", "Outside secret"));
    await writeFile(join(outside, "victim.txt"), "untouched");
    await mkdir(join(s.repoDir, "forms/@me"), { recursive: true });
    await symlink(join(outside, "leak.md"), join(s.repoDir, "forms/@me/leak.md"));
    await symlink(join(outside, "victim.txt"), join(s.repoDir, "forms/@me/over.md"));
    await symlink(join(outside, "nothing.md"), join(s.repoDir, "forms/@me/made.md"));
    await symlink(outside, join(s.repoDir, "forms/@linked"));
  });
  afterAll(() => s?.close());

  it("neither lists nor reads a linked file", async () => {
    const listed = await s.ctx.repo.list("forms");
    expect(listed.filter((p) => /leak|over|made|linked/.test(p))).toEqual([]);
    expect(await s.ctx.repo.read("forms/@me/leak.md")).toBeNull();
    expect(await s.ctx.repo.read("forms/@linked/leak.md")).toBeNull();
    await reconcileRepository(s.ctx);
    const api = client(s.url, s.apiKey);
    expect((await api("GET", "/api/forms/leak")).status).toBe(404);
  });

  it("never writes through a link, to an existing file or to a new one", async () => {
    // (what a deploy with content, MCP deploy_form, writes through)
    for (const path of ["forms/@me/over.md", "forms/@me/made.md", "forms/@linked/new.md"]) {
      const written = s.ctx.repo.write(path, FORM("over", "Written through"), "Deploy");
      await expect(written, path).rejects.toMatchObject({ failure: { code: "conflict" } });
      await expect(s.ctx.repo.remove(path, "Remove")).rejects.toThrow();
    }
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("untouched");
    await expect(readFile(join(outside, "nothing.md"), "utf8")).rejects.toThrow();
    await expect(readFile(join(outside, "new.md"), "utf8")).rejects.toThrow();
    expect(await readFile(join(outside, "leak.md"), "utf8")).toContain("Outside secret");
  });
});
