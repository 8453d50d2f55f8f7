// SPEC §19 "Uploads obey the form": an upload is refused exactly where a submit would be (closed
// form, wrong or missing password/link token, missing anti-bot token), nothing is stored then,
// the file streams to storage and is cut off at the field's max_mb, and files no response
// references are swept after FORMDOWN_UPLOAD_TTL (24 h).

import { readdir } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepUploads } from "../../functions/services/uploads.ts";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const cv = (max_mb = 1) => [{ id: "cv", type: "file", label: "CV", max_mb }];

describe("uploads obey the form", () => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer();
    api = client(s.url, s.apiKey);
    const forms: [string, object, object | null][] = [
      ["up-open", { humanness: false, fields: cv(5) }, null],
      ["up-closed", { humanness: false, fields: cv() }, { mode: "closed" }],
      ["up-pw", { humanness: false, fields: cv() }, { mode: "password", password: "open sesame" }],
      ["up-link", { humanness: false, fields: cv() }, { mode: "link" }],
      ["up-bot", { fields: cv() }, null],
    ];
    for (const [slug, extra, access] of forms) {
      const made = await api("POST", "/api/forms", { body: { title: slug, slug, ...extra } });
      expect(made.status).toBe(201);
      ids[slug] = made.body.form_id;
      if (access) {
        const set = await api("PUT", `/api/forms/${slug}/access`, { body: access });
        expect(set.status).toBe(200);
        if (set.body.access_token) ids[`${slug}:token`] = set.body.access_token;
      }
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const send = async (
    slug: string,
    parts: Record<string, string>,
    file = new File(["%PDF hi"], "cv.pdf"),
  ) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(parts)) body.set(k, v);
    body.set("file", file);
    const res = await fetch(`${s.url}/api/forms/${slug}/uploads`, { method: "POST", body });
    return { status: res.status, body: (await res.json()) as { url?: string; code?: string } };
  };
  /** Files stored for a form (the embedded storage: FORMDOWN_DATA_DIR/uploads/<form id>/…). */
  const stored = async (slug: string) => {
    const dir = join(s.dataDir, "uploads", ids[slug]!);
    const files = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    const rows = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from uploads where form_id = $1",
      [ids[slug]],
    );
    return { files: files.filter((f) => f.endsWith(".pdf")).length, rows: rows[0]!.n };
  };

  it("refuses an upload to a closed form and stores nothing", async () => {
    const res = await send("up-closed", { field: "cv" });
    expect([res.status, res.body.code]).toEqual([403, "form_closed"]);
    expect(await stored("up-closed")).toEqual({ files: 0, rows: 0 });
  });

  it("needs the password or the link token, as a submit does", async () => {
    // a password is tried only with an anti-bot token, whatever the form asks (SPEC §23)
    const token = () => solveAltcha(s.url);
    expect((await send("up-pw", { field: "cv", access: "open sesame" })).body.code).toBe(
      "captcha_failed",
    );
    expect((await send("up-pw", { field: "cv", turnstile_token: await token() })).body.code).toBe(
      "access_denied",
    );
    const guess = await send("up-pw", {
      field: "cv",
      access: "guess",
      turnstile_token: await token(),
    });
    expect(guess.status).toBe(403);
    expect((await send("up-link", { field: "cv", access: "nope" })).body.code).toBe(
      "access_denied",
    );
    expect(await stored("up-pw")).toEqual({ files: 0, rows: 0 });
    expect(await stored("up-link")).toEqual({ files: 0, rows: 0 });
    const right = { field: "cv", access: "open sesame", turnstile_token: await token() };
    expect((await send("up-pw", right)).status).toBe(201);
    expect((await send("up-link", { field: "cv", access: ids["up-link:token"]! })).status).toBe(
      201,
    );
    expect(await stored("up-pw")).toEqual({ files: 1, rows: 1 });
  });

  it("needs a valid anti-bot token on a form with humanness", async () => {
    const none = await send("up-bot", { field: "cv" });
    expect([none.status, none.body.code]).toEqual([422, "captcha_failed"]);
    const forged = await send("up-bot", { field: "cv", turnstile_token: "forged" });
    expect(forged.body.code).toBe("captcha_failed");
    expect(await stored("up-bot")).toEqual({ files: 0, rows: 0 });
    const ok = await send("up-bot", { field: "cv", turnstile_token: await solveAltcha(s.url) });
    expect(ok.status).toBe(201);
  });

  it("wants field before file", async () => {
    const body = new FormData();
    body.set("file", new File(["x"], "cv.pdf"));
    body.set("field", "cv");
    const res = await fetch(`${s.url}/api/forms/up-open/uploads`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
  });

  it("stores the bytes it was sent, streamed", async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7919) % 256);
    const res = await send("up-open", { field: "cv" }, new File([bytes], "big.pdf"));
    expect(res.status).toBe(201);
    const back = new Uint8Array(await (await fetch(res.body.url!)).arrayBuffer());
    expect(back.length).toBe(bytes.length);
    expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
    const [row] = await s.ctx.db.query<{ size_bytes: number }>(
      "select size_bytes from uploads where url = $1",
      [res.body.url],
    );
    expect(Number(row!.size_bytes)).toBe(bytes.length);
  });

  it("cuts a file off at max_mb while streaming it: 413 before the client has finished", async () => {
    const boundary = "----sec-upload";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="field"\r\n\r\ncv\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`;
    const before = await stored("up-open");
    // 5 MB field; the client would send 40 MB without a length, and stops when answered
    const { hostname, port } = new URL(s.url);
    const answer = await new Promise<{ status: number; code: string; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        let done = false;
        const req = request(
          { host: hostname, port, method: "POST", path: "/api/forms/up-open/uploads" },
          (res) => {
            let text = "";
            res.on("data", (c) => {
              text += c;
            });
            res.on("end", () => {
              done = true;
              resolve({ status: res.statusCode!, code: JSON.parse(text).code, sent });
            });
          },
        );
        req.setHeader("content-type", `multipart/form-data; boundary=${boundary}`);
        req.on("error", (e) => (done ? undefined : reject(e)));
        req.write(head);
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (!done && sent < 40 * 1024 * 1024 && req.write(chunk)) sent += chunk.length;
          if (done) return;
          if (sent < 40 * 1024 * 1024) req.once("drain", pump);
          else req.end(`\r\n--${boundary}--\r\n`);
        };
        pump();
      },
    );
    expect([answer.status, answer.code]).toEqual([413, "payload_too_large"]);
    expect(answer.sent).toBeLessThan(40 * 1024 * 1024);
    expect(await stored("up-open")).toEqual(before);
    expect((await api("GET", "/api/health")).status).toBe(200);
  });

  it("sweeps files no response references once they are older than the TTL", async () => {
    const kept = await send("up-open", { field: "cv" });
    const dropped = await send("up-open", { field: "cv" });
    const fresh = await send("up-open", { field: "cv" });
    const submitted = await api("POST", "/api/forms/up-open/submit", {
      key: null,
      body: { fields: { cv: kept.body.url } },
    });
    expect(submitted.status).toBe(201);
    await s.ctx.db.query(
      "update uploads set created_at = now() - interval '25 hours' where url = any($1::text[])",
      [[kept.body.url, dropped.body.url]],
    );
    expect(await sweepUploads(s.ctx)).toBe(1);
    expect((await fetch(kept.body.url!)).status).toBe(200);
    expect((await fetch(dropped.body.url!)).status).toBe(404);
    expect((await fetch(fresh.body.url!)).status).toBe(200);
  });
});
