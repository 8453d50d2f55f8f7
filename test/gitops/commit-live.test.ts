// SPEC §21: commit it, and it is live. The embedded server watches its repository's branch head
// and deploys the form files a commit touched through the start-up deploy path.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Log } from "../../functions/context.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
const logged: string[] = [];
const log: Log = {
  info: (m) => logged.push(m),
  error: (m) => logged.push(m),
};

const form = (label: string) => `---
title: Live
slug: live
fields:
  - id: name
    type: text
    label: ${label}
---
`;

const commit = async (path: string, text: string, message: string) => {
  await mkdir(join(s.repoDir, "forms/@me"), { recursive: true });
  await writeFile(join(s.repoDir, path), text);
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", s.repoDir, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  git("add", "--", path);
  git("commit", "-qm", message);
};

/** Polls until `check` holds (a state, not a duration: the deadline is only a safety net). */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await read();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const labelOf = async () => {
  const res = await fetch(`${s.url}/api/forms/live`, {
    headers: { authorization: `Bearer ${s.apiKey}` },
  });
  if (res.status !== 200) return `HTTP ${res.status}`;
  const body = (await res.json()) as { config?: { fields: { label: string }[] } };
  return body.config?.fields[0]?.label ?? JSON.stringify(body).slice(0, 200);
};

beforeAll(async () => {
  s = await startTestServer({ watchRepository: 100, log });
});
afterAll(() => s?.close());

describe("a commit to the embedded server's repository", () => {
  it("makes a new form live, then its edit", async () => {
    expect(await labelOf()).toBe("HTTP 404");
    await commit("forms/@me/live.md", form("First label"), "add live");
    expect(await until(labelOf, (l) => l === "First label")).toBe("First label");
    await commit("forms/@me/live.md", form("Second label"), "edit live");
    expect(await until(labelOf, (l) => l === "Second label")).toBe("Second label");
  });

  it("deploys nothing of an invalid file, says so in the log, and keeps the live form", async () => {
    await commit(
      "forms/@me/live.md",
      form("Third label").replace("type: text", "type: nope"),
      "break",
    );
    const said = await until(
      async () => logged.join("\n"),
      (l) => /not deployed: forms\/@me\/live\.md/.test(l),
    );
    expect(said).toMatch(/forms\/@me\/live\.md:\d+/);
    expect(await labelOf()).toBe("Second label");
  });

  it("ignores what is written but not committed", async () => {
    await writeFile(join(s.repoDir, "forms/@me/live.md"), form("Uncommitted"));
    await commit("forms/@me/other.md", form("x").replace("slug: live", "slug: other"), "other");
    const other = await until(
      async () =>
        (
          await fetch(`${s.url}/api/forms/other`, {
            headers: { authorization: `Bearer ${s.apiKey}` },
          })
        ).status,
      (st) => st === 200,
    );
    expect(other).toBe(200);
    expect(await labelOf()).toBe("Second label");
  });
});
