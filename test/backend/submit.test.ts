import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const field = (id: string, type: string, extra: object = {}) => ({ id, type, label: id, ...extra });

/**
 * POSTs `head`, then `size` bytes of filler in 64 KiB chunks, then `tail`, over node:http — with
 * a Content-Length only when given — and answers the status and the parsed JSON body. It keeps
 * writing until the server answers, so a server that waits for the end would hang the test.
 */
function streamPost(
  url: string,
  path: string,
  body: { type: string; head: string; size: number; tail: string; length?: number },
) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; code: string }>((resolve, reject) => {
    const req = request({ host: hostname, port, method: "POST", path }, (res) => {
      let text = "";
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode!, code: JSON.parse(text).code }));
    });
    req.setHeader("content-type", body.type);
    if (body.length !== undefined) req.setHeader("content-length", String(body.length));
    req.on("error", reject);
    req.write(body.head);
    const chunk = "%".repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < body.size && req.write(chunk)) sent += chunk.length;
      if (sent < body.size) req.once("drain", pump);
      else req.end(body.tail);
    };
    pump();
  });
}

describe.each(DB_KINDS)("public submit (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const forms = [
      { title: "Guarded", slug: "guarded", fields: [field("name", "text", { required: true })] },
      {
        title: "Open",
        slug: "open",
        humanness: false,
        fields: [
          field("n", "number"),
          field("why", "text", { show_if: { field: "n", op: "gt", value: 5 } }),
        ],
      },
      {
        title: "Quiz",
        slug: "quiz-x",
        type: "quiz",
        humanness: false,
        quiz: { pass_percent: 50 },
        fields: [
          field("q1", "radio", { options: ["a", "b"], answer: "b", points: 2 }),
          field("q2", "yes_no", { answer: "yes" }),
        ],
      },
      {
        title: "Capped",
        slug: "capped",
        humanness: false,
        settings: { max_responses: 2 },
        fields: [field("x", "text")],
      },
      {
        title: "Ended",
        slug: "ended",
        humanness: false,
        settings: { closes_at: "2020-01-01T00:00:00Z" },
        fields: [field("x", "text")],
      },
      {
        title: "Tracked",
        slug: "tracked",
        humanness: false,
        hidden: ["utm_source"],
        fields: [field("x", "text")],
      },
    ];
    for (const body of forms) expect((await api("POST", "/api/forms", { body })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("needs a solved ALTCHA challenge on guarded forms, and refuses a replayed one", async () => {
    const none = await api("POST", "/api/forms/guarded/submit", {
      key: null,
      body: { fields: { name: "A" } },
    });
    expect([none.status, none.body.code]).toEqual([422, "captcha_failed"]);
    const token = await solveAltcha(s.url);
    const ok = await api("POST", "/api/forms/guarded/submit", {
      key: null,
      body: { fields: { name: "A" }, turnstile_token: token },
    });
    expect(ok.status).toBe(201);
    const replay = await api("POST", "/api/forms/guarded/submit", {
      key: null,
      body: { fields: { name: "B" }, turnstile_token: token },
    });
    expect(replay.body.code).toBe("captcha_failed");
    const forged = await api("POST", "/api/forms/guarded/submit", {
      key: null,
      body: { fields: { name: "B" }, turnstile_token: btoa("{}") },
    });
    expect(forged.body.code).toBe("captcha_failed");
  });

  it("drops values of fields hidden by show_if and keeps NPS-like zeros", async () => {
    const res = await api("POST", "/api/forms/open/submit", {
      key: null,
      body: { fields: { n: 0, why: "hidden value" } },
    });
    const read = await api("GET", `/api/forms/open/responses/${res.body.response_id}`);
    expect(read.body.payload).toEqual({ n: 0 });
  });

  it("scores quizzes and shows the score immediately", async () => {
    const res = await api("POST", "/api/forms/quiz-x/submit", {
      key: null,
      body: { fields: { q1: "b", q2: "no" } },
    });
    expect(res.body.score).toEqual({ points: 2, max_points: 3, percent: 66.7, passed: true });
    const read = await api("GET", `/api/forms/quiz-x/responses/${res.body.response_id}`);
    expect(read.body.score.points).toBe(2);
    const pub = await api("GET", "/api/forms/quiz-x/public", { key: null });
    expect(JSON.stringify(pub.body)).not.toContain('"answer"');
  });

  it("closes at max_responses and after closes_at with 403 form_closed", async () => {
    for (let i = 0; i < 2; i++)
      expect(
        (
          await api("POST", "/api/forms/capped/submit", {
            key: null,
            body: { fields: { x: `${i}` } },
          })
        ).status,
      ).toBe(201);
    const third = await api("POST", "/api/forms/capped/submit", {
      key: null,
      body: { fields: { x: "3" } },
    });
    expect([third.status, third.body.code]).toEqual([403, "form_closed"]);
    expect(
      (await api("POST", "/api/forms/ended/submit", { key: null, body: { fields: {} } })).body.code,
    ).toBe("form_closed");
    expect((await api("GET", "/api/forms/ended")).body.status).toBe("closed");
  });

  it("returns the first answer for a retried Idempotency-Key and stores nothing new", async () => {
    const headers = { "idempotency-key": "retry-1" };
    const first = await api("POST", "/api/forms/open/submit", {
      key: null,
      headers,
      body: { fields: { n: 1 } },
    });
    const again = await api("POST", "/api/forms/open/submit", {
      key: null,
      headers,
      body: { fields: { n: 1 } },
    });
    expect(again.status).toBe(201);
    expect(again.body.response_id).toBe(first.body.response_id);
    // the key is bound to its answers (test/security/submit-oracles.test.ts)
    const other = await api("POST", "/api/forms/open/submit", {
      key: null,
      headers,
      body: { fields: { n: 2 } },
    });
    expect([other.status, other.body.code]).toEqual([422, "idempotency_mismatch"]);
    const list = await api("GET", "/api/forms/open/responses");
    expect(
      list.body.responses.filter((r: { payload: { n: number } }) => r.payload.n === 2),
    ).toHaveLength(0);
  });

  it("keeps only declared hidden URL values under payload._hidden", async () => {
    const res = await api("POST", "/api/forms/tracked/submit", {
      key: null,
      body: { fields: { x: "y" }, hidden: { utm_source: "news", other: "no" } },
    });
    const read = await api("GET", `/api/forms/tracked/responses/${res.body.response_id}`);
    expect(read.body.payload).toEqual({ x: "y", _hidden: { utm_source: "news" } });
  });

  it("enforces link and password access and closing through PUT /access", async () => {
    const link = await api("PUT", "/api/forms/open/access", { body: { mode: "link" } });
    const token = link.body.access_token as string;
    expect(link.body.public_url).toContain(`?access=${token}`);
    expect(
      (await api("POST", "/api/forms/open/submit", { key: null, body: { fields: {} } })).body.code,
    ).toBe("access_denied");
    expect(
      (
        await api("POST", "/api/forms/open/submit", {
          key: null,
          body: { fields: {}, access: token },
        })
      ).status,
    ).toBe(201);
    const rotated = await api("PUT", "/api/forms/open/access", {
      body: { mode: "link", rotate: true },
    });
    expect(rotated.body.access_token).not.toBe(token);
    expect(
      (
        await api("POST", "/api/forms/open/submit", {
          key: null,
          body: { fields: {}, access: token },
        })
      ).body.code,
    ).toBe("access_denied");
    await api("PUT", "/api/forms/open/access", {
      body: { mode: "password", password: "open sesame" },
    });
    // a password is tried only with an anti-bot token, whatever the form asks (SPEC §23)
    expect(
      (
        await api("POST", "/api/forms/open/submit", {
          key: null,
          body: { fields: {}, access: "open sesame" },
        })
      ).body.code,
    ).toBe("captcha_failed");
    expect(
      (
        await api("POST", "/api/forms/open/submit", {
          key: null,
          body: { fields: {}, access: "wrong", turnstile_token: await solveAltcha(s.url) },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api("POST", "/api/forms/open/submit", {
          key: null,
          body: { fields: {}, access: "open sesame", turnstile_token: await solveAltcha(s.url) },
        })
      ).status,
    ).toBe(201);
    await api("PUT", "/api/forms/open/access", { body: { mode: "closed" } });
    expect(
      (await api("POST", "/api/forms/open/submit", { key: null, body: { fields: {} } })).body.code,
    ).toBe("form_closed");
    await api("PUT", "/api/forms/open/access", { body: { mode: "public" } });
  });

  it("stores exactly 200 records for 200 concurrent submits", async () => {
    await api("POST", "/api/forms", {
      body: { title: "Load", slug: "load", humanness: false, fields: [field("i", "number")] },
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api("POST", "/api/forms/load/submit", { key: null, body: { fields: { i } } }),
      ),
    );
    // each refusal by its status and code, so a failure says which (a 503 under load, a 429)
    expect(
      results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.code}`),
    ).toEqual([]);
    expect(new Set(results.map((r) => r.body.response_id)).size).toBe(200);
    const list = await api("GET", "/api/forms/load/submissions?limit=1");
    expect(list.body.total).toBe(200);
    const seqs = await s.ctx.db.query<{ n: number }>(
      "select count(distinct seq)::int as n from responses r join forms f on f.id = r.form_id where f.slug = 'load'",
    );
    expect(seqs[0]!.n).toBe(200);
  });

  it("counts view and start beacons and uploads files for file fields", async () => {
    expect(
      (await api("POST", "/api/forms/open/events", { key: null, body: { type: "view" } })).status,
    ).toBe(204);
    expect(
      (await api("POST", "/api/forms/open/events", { key: null, body: { type: "jump" } })).status,
    ).toBe(400);
    expect((await api("GET", "/api/forms/open")).body.stats.views).toBe(1);
    await api("POST", "/api/forms", {
      body: {
        title: "Files",
        slug: "files",
        humanness: false,
        fields: [field("cv", "file", { accept: ["application/pdf"], max_mb: 1 })],
      },
    });
    const form = new FormData();
    form.set("field", "cv");
    form.set("file", new File(["%PDF-1.4 hello"], "cv.pdf", { type: "application/pdf" }));
    const up = await fetch(`${s.url}/api/forms/files/uploads`, { method: "POST", body: form });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    const wrong = new FormData();
    wrong.set("field", "cv");
    wrong.set("file", new File(["x"], "x.txt", { type: "text/plain" }));
    expect(
      (await fetch(`${s.url}/api/forms/files/uploads`, { method: "POST", body: wrong })).status,
    ).toBe(400);
    const bad = await api("POST", "/api/forms/files/submit", {
      key: null,
      body: { fields: { cv: "https://evil.example/x.pdf" } },
    });
    expect(bad.body.details[0].field).toBe("cv");
    expect(
      (await api("POST", "/api/forms/files/submit", { key: null, body: { fields: { cv: url } } }))
        .status,
    ).toBe(201);
    expect(await (await fetch(url)).text()).toBe("%PDF-1.4 hello");
  });

  it("answers 413 over 1 MiB and 400 for malformed JSON", async () => {
    const big = await api("POST", "/api/forms/open/submit", {
      key: null,
      raw: JSON.stringify({ fields: { x: "a".repeat(1_100_000) } }),
    });
    expect([big.status, big.body.code]).toEqual([413, "payload_too_large"]);
    const broken = await api("POST", "/api/forms/open/submit", { key: null, raw: "{not json" });
    expect([broken.status, broken.body.code]).toEqual([400, "invalid_request"]);
  });

  it("stops reading a chunked body without a length once it passes 1 MiB", async () => {
    const answer = await streamPost(s.url, "/api/forms/open/submit", {
      type: "application/json",
      head: '{"fields":{"x":"',
      size: 4 * 1024 * 1024,
      tail: '"}}',
    });
    expect(answer).toEqual({ status: 413, code: "payload_too_large" });
    expect((await api("GET", "/api/health")).status).toBe(200);
  });

  it("refuses an upload larger than the form's file fields allow before reading it", async () => {
    const boundary = "----formdown-test";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="field"\r\n\r\ncv\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const size = 3 * 1024 * 1024; // the "files" form's field takes 1 MB
    const upload = { type: `multipart/form-data; boundary=${boundary}`, head, size, tail };
    const path = "/api/forms/files/uploads";
    const declared = { ...upload, length: head.length + size + tail.length };
    expect(await streamPost(s.url, path, declared)).toEqual({
      status: 413,
      code: "payload_too_large",
    });
    expect(await streamPost(s.url, path, upload)).toEqual({
      status: 413,
      code: "payload_too_large",
    });
    const none = new FormData();
    none.set("field", "x");
    none.set("file", new File(["x"], "x.txt"));
    const noFiles = await fetch(`${s.url}/api/forms/open/uploads`, { method: "POST", body: none });
    expect([noFiles.status, ((await noFiles.json()) as { code: string }).code]).toEqual([
      400,
      "validation_failed",
    ]);
    expect((await api("GET", "/api/health")).status).toBe(200);
  });

  it("answers other origins, errors included, and their preflight", async () => {
    const pre = await fetch(`${s.url}/api/forms/open/submit`, {
      method: "OPTIONS",
      headers: {
        origin: "https://pages.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,idempotency-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toBe(
      "content-type,idempotency-key,x-formdown-access,x-formdown-antibot",
    );
    const headers = { origin: "https://pages.example" };
    const ok = await api("POST", "/api/forms/open/submit", {
      key: null,
      headers,
      body: { fields: { n: 1 } },
    });
    const bad = await api("POST", "/api/forms/open/submit", {
      key: null,
      headers,
      body: { fields: { n: "many" } },
    });
    expect([ok.status, bad.status]).toEqual([201, 400]);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    const beacon = await api("POST", "/api/forms/open/events", {
      key: null,
      headers,
      body: { type: "bogus" },
    });
    expect(beacon.status).toBe(400);
    expect(beacon.headers.get("access-control-allow-origin")).toBe("*");
  });
});
