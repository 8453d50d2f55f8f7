// Ninth review (2026-11-28, REVIEW-9A): `GET /api/uploads/<key>` (no key: the upload's address is
// its capability) read the whole file into memory and copied it before the first byte went out,
// and held both until the client had read them. An anonymous upload of 100 MB to a form with
// `max_mb: 100` and ten slow downloads of it (`curl --limit-rate 10k`) took the server from
// 479 MB to 1,884 MB resident; a few dozen end it. The file is now read as the client takes it
// (Supabase Storage too: streamed from its object API rather than read whole by supabase-js).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MB = 1024 * 1024;

describe.each(DB_KINDS)("downloads of an upload (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const made = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: {
        title: "Files",
        slug: "files",
        humanness: false,
        fields: [{ id: "f", type: "file", label: "File", max_mb: 40 }],
      },
    });
    expect(made.status).toBe(201);
  });
  afterAll(() => s?.close());

  it("do not hold the file in memory while their clients read slowly", async () => {
    const size = 40 * MB - 4096;
    const bytes = new Uint8Array(size).fill(7);
    const form = new FormData();
    form.set("field", "f");
    form.set("file", new Blob([bytes]), "big.bin");
    // over the socket, as a stranger sends it (no key)
    const up = await fetch(`${s.url}/api/forms/files/uploads`, { method: "POST", body: form });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };

    const before = process.memoryUsage().arrayBuffers;
    const slow = await Promise.all(Array.from({ length: 6 }, () => fetch(url)));
    expect(slow.map((r) => r.status)).toEqual(Array(6).fill(200));
    // each has its first bytes, and no one reads on
    for (const r of slow) await r.body!.getReader().read();
    const held = process.memoryUsage().arrayBuffers - before;
    for (const r of slow) await r.body!.cancel().catch(() => {});
    // read whole: 6 × 40 MB at least (206 MB here); streamed: a few chunks each
    expect(held).toBeLessThan(60 * MB);

    const whole = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(whole.length).toBe(size);
    expect(whole.every((b) => b === 7)).toBe(true);
  });
});
