// SPEC §17 "Milestones count responses" and §19 "Caps and counters cannot be spent by
// duplicates": a cap or a milestone counts stored responses, never the form's sequence numbers,
// which have gaps (a failed or duplicate submit still draws one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const text = [{ id: "name", type: "text", label: "Name" }];

describe.each(DB_KINDS)("caps and milestones count stored responses (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    await s?.close();
  });

  const submit = (slug: string, name: string, key?: string) =>
    api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields: { name } },
      ...(key ? { headers: { "idempotency-key": key } } : {}),
    });
  const create = async (slug: string, extra: object) => {
    const res = await api("POST", "/api/forms", {
      body: { title: slug, slug, humanness: false, fields: text, ...extra },
    });
    expect(res.status).toBe(201);
    return res.body.form_id as string;
  };
  /** Sequence numbers drawn by submits that then failed: gaps. */
  const burn = async (formId: string, n: number) => {
    for (let i = 0; i < n; i++)
      await s.ctx.db.query("select nextval($1::regclass)", [formSequence(formId)]);
  };
  const stored = async (slug: string) => (await api("GET", `/api/forms/${slug}`)).body;

  it("spends one place for 12 concurrent submits with one Idempotency-Key", async () => {
    await create("cap-dup", { settings: { max_responses: 5 } });
    const same = await Promise.all(
      Array.from({ length: 12 }, () => submit("cap-dup", "Ann", "one-key")),
    );
    expect(same.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(same.map((r) => r.body.response_id)).size).toBe(1);
    // four more respondents fit; the sixth does not
    for (const name of ["Bob", "Cy", "Dee", "Eve"])
      expect((await submit("cap-dup", name)).status).toBe(201);
    const full = await submit("cap-dup", "Fay");
    expect(full.status).toBe(403);
    expect(full.body.code).toBe("form_closed");
    const detail = await stored("cap-dup");
    expect(detail.stats.responses).toBe(5);
    expect(detail.status).toBe("closed");
  });

  it("does not count gaps in the sequence against the cap", async () => {
    const id = await create("cap-gaps", { settings: { max_responses: 3 } });
    await burn(id, 10);
    for (const name of ["a", "b", "c"]) expect((await submit("cap-gaps", name)).status).toBe(201);
    expect((await submit("cap-gaps", "d")).body.code).toBe("form_closed");
    expect((await stored("cap-gaps")).stats.responses).toBe(3);
  });

  it("never passes the cap under 20 concurrent submits", async () => {
    await create("cap-rush", { settings: { max_responses: 5 } });
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit("cap-rush", `r${i}`)),
    );
    expect(all.filter((r) => r.status === 201)).toHaveLength(5);
    expect(all.filter((r) => r.status === 403 && r.body.code === "form_closed")).toHaveLength(15);
    expect((await stored("cap-rush")).stats.responses).toBe(5);
  });

  it("frees a place when a response is erased", async () => {
    await create("cap-free", { settings: { max_responses: 2 } });
    const first = await submit("cap-free", "a");
    expect((await submit("cap-free", "b")).status).toBe(201);
    expect((await submit("cap-free", "c")).status).toBe(403);
    await s.ctx.db.query("delete from responses where id = $1", [first.body.response_id]);
    expect((await submit("cap-free", "d")).status).toBe(201);
    expect((await submit("cap-free", "e")).status).toBe(403);
  });

  it("writes the 'reached N' email with the N-th stored response, once, despite gaps", async () => {
    const id = await create("ms-gaps", {
      notifications: {
        email: ["owner@example.com"],
        strategy: { immediate_count: 0, milestones: { absolute: [3, 5] } },
      },
    });
    const ids: string[] = [];
    const add = async (name: string, key?: string) => {
      const res = await submit("ms-gaps", name, key);
      expect(res.status).toBe(201);
      ids.push(res.body.response_id);
    };
    await add("a");
    await burn(id, 4);
    // duplicates of one request: one response
    const dup = await Promise.all(
      Array.from({ length: 6 }, () => submit("ms-gaps", "b", "dup-key")),
    );
    ids.push(dup[0]!.body.response_id);
    const milestones = () =>
      s.ctx.db.query<{ milestone: number; response_id: string }>(
        "select milestone, response_id from outbox where form_id = $1 and kind = 'milestone' order by milestone",
        [id],
      );
    expect(await milestones()).toEqual([]);
    await add("c");
    expect(await milestones()).toEqual([{ milestone: 3, response_id: ids[2] }]);
    await add("d");
    expect((await milestones()).map((m) => m.milestone)).toEqual([3]);
    await Promise.all([add("e"), add("f"), add("g")]);
    const all = await milestones();
    expect(all.map((m) => m.milestone)).toEqual([3, 5]);
    // the fifth stored response is one of the three concurrent ones, whichever took the fifth
    // count (their start times, submitted_at, need not be in the order of their counts)
    expect(ids.slice(-3)).toContain(all[1]!.response_id);
  });
});
