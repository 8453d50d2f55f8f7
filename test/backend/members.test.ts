// SPEC §26 "Members and roles": an account's members (owner, editor, viewer), each with their own
// keys whose scope the role bounds (SPEC §23), removed with their keys; REST and the CLI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("members and roles (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;

  const add = async (email: string, role: string) => {
    const res = await api("POST", "/api/members", { body: { email, role } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { member: { id: string; role: string }; key: { api_key: string } };
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Team",
        slug: "team",
        humanness: false,
        fields: [{ id: "note", type: "text" }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await api("POST", "/api/forms/team/submit", {
      key: null,
      body: { fields: { note: "hello" } },
    });
    expect(sent.status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await s?.close();
  });

  it("adds a member with a first key whose scope is the role's, and lists them", async () => {
    const viewer = await add("vera@example.com", "viewer");
    expect(viewer.member).toMatchObject({ email: "vera@example.com", role: "viewer" });
    expect(viewer.key).toMatchObject({
      scopes: ["read"],
      forms: null,
      member_id: viewer.member.id,
    });
    const editor = await add("eddie@example.com", "editor");
    expect(editor.key).toMatchObject({ scopes: ["write"] });
    const owner = await add("olga@example.com", "owner");
    expect(owner.key).toMatchObject({ scopes: ["admin"] });

    const { body } = await api("GET", "/api/members");
    expect(body.members).toEqual([
      expect.objectContaining({ email: "vera@example.com", role: "viewer", keys: 1 }),
      expect.objectContaining({ email: "eddie@example.com", role: "editor", keys: 1 }),
      expect.objectContaining({ email: "olga@example.com", role: "owner", keys: 1 }),
    ]);
    const keys = (await api("GET", "/api/keys")).body.keys;
    expect(keys.find((k: { name: string }) => k.name === "vera@example.com")).toMatchObject({
      member_id: viewer.member.id,
      scopes: ["read"],
    });
  });

  it("lets a viewer read and refuses every change; an editor changes forms but not members", async () => {
    const viewer = client(s.url, (await add("val@example.com", "viewer")).key.api_key);
    expect((await viewer("GET", "/api/forms/team/responses")).body.total).toBe(1);
    const patch = await viewer("PATCH", "/api/forms/team", { body: { title: "Mine" } });
    expect(patch.status).toBe(403);
    expect(patch.body.error).toContain('"write" scope');
    expect((await viewer("GET", "/api/members")).status).toBe(403);
    const editor = client(s.url, (await add("ed@example.com", "editor")).key.api_key);
    expect((await editor("PATCH", "/api/forms/team", { body: { title: "Team" } })).status).toBe(
      200,
    );
    const refused = await editor("POST", "/api/members", {
      body: { email: "x@example.com", role: "owner" },
    });
    expect(refused.status).toBe(403);
    expect((await editor("POST", "/api/keys", { body: { scopes: ["write"] } })).status).toBe(403);
  });

  it("never gives a member's key more than the role, however it was made or stored", async () => {
    const viewer = await add("vic@example.com", "viewer");
    // an owner makes another key for them: the role's scope by default, never wider
    const more = await api("POST", "/api/keys", { body: { member_id: viewer.member.id } });
    expect(more.status, JSON.stringify(more.body)).toBe(201);
    expect(more.body).toMatchObject({ scopes: ["read"], member_id: viewer.member.id });
    const wider = await api("POST", "/api/keys", {
      body: { member_id: viewer.member.id, scopes: ["write"] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body.details).toEqual([{ field: "scopes", message: 'at most "read"' }]);
    // a key row widened behind the server's back still acts as the role allows
    await s.ctx.db.query("update api_keys set scopes = '{admin}' where member_id = $1", [
      viewer.member.id,
    ]);
    const widened = client(s.url, viewer.key.api_key);
    expect((await widened("GET", "/api/forms/team/responses")).status).toBe(200);
    expect((await widened("DELETE", "/api/forms/team/responses")).status).toBe(403);
    // a key an owner-member makes is theirs
    const owner = await add("otto@example.com", "owner");
    const own = await client(s.url, owner.key.api_key)("POST", "/api/keys", {
      body: { scopes: ["read"], name: "otto-ci" },
    });
    expect(own.body).toMatchObject({ member_id: owner.member.id, scopes: ["read"] });
  });

  it("refuses a bad role, a bad address and an address already a member", async () => {
    const role = await api("POST", "/api/members", {
      body: { email: "a@example.com", role: "god" },
    });
    expect(role.status).toBe(400);
    expect(role.body).toMatchObject({ code: "validation_failed" });
    expect(role.body.details).toEqual([
      { field: "role", message: expect.stringContaining("viewer") },
    ]);
    const email = await api("POST", "/api/members", { body: { email: "nope", role: "viewer" } });
    expect(email.body.details).toEqual([{ field: "email", message: "must be an email address" }]);
    await add("twice@example.com", "viewer");
    const again = await api("POST", "/api/members", {
      body: { email: "TWICE@example.com", role: "owner" },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
  });

  it("removes a member and revokes every key they hold", async () => {
    const gone = await add("gone@example.com", "editor");
    const second = await api("POST", "/api/keys", { body: { member_id: gone.member.id } });
    const removed = await api("DELETE", `/api/members/${gone.member.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: gone.member.id, keys_revoked: 2 });
    for (const key of [gone.key.api_key, second.body.api_key]) {
      const res = await client(s.url, key)("GET", "/api/forms/team/responses");
      expect(res.status).toBe(401);
    }
    expect((await api("DELETE", `/api/members/${gone.member.id}`)).status).toBe(404);
    expect((await api("DELETE", "/api/members/not-an-id")).status).toBe(404);
    // another account's member is no member here
    const other = client(s.url, await s.otherKey());
    const theirs = await other("POST", "/api/members", {
      body: { email: "theirs@example.com", role: "viewer" },
    });
    expect((await api("DELETE", `/api/members/${theirs.body.member.id}`)).status).toBe(404);
    const listed = (await api("GET", "/api/members")).body.members.map((m: any) => m.email);
    expect(listed).not.toContain("gone@example.com");
    expect(listed).not.toContain("theirs@example.com");
    // the address may join again, as a new member
    expect((await add("gone@example.com", "viewer")).member.id).not.toBe(gone.member.id);
  });

  it("does the same through the CLI: members add, list, remove", async () => {
    const env = { env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey } };
    const added = await runFormdown(["members", "add", "cli@example.com", "--role", "editor"], env);
    expect(added.code, added.stderr).toBe(0);
    const made = JSON.parse(added.stdout);
    expect(made).toMatchObject({ member: { role: "editor" }, key: { scopes: ["write"] } });
    const listed = await runFormdown(["members", "list"], env);
    expect(listed.stdout).toMatch(/cli@example\.com\s+editor\s+1/);
    const removed = await runFormdown(["members", "remove", made.member.id], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain("1 key(s) revoked");
    const bad = await runFormdown(["members", "add", "x@example.com", "--role", "boss"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("role");
  });
});
