// The server the generated fuzz runs against: a few real resources (a password form, a form of
// every field type, a draft, responses, a webhook and its delivery, an upload, spare keys), so a
// generated path or body names something that exists about half the time.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { DbKind } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

export const ADMIN_TOKEN = "fuzz-admin-token-0123456789abcdef";
export const PASSWORD = "open sesame";

export const FIELDS = [
  { id: "name", type: "text", label: "Name", max_length: 50 },
  { id: "mail", type: "email" },
  { id: "notes", type: "textarea" },
  { id: "age", type: "number", min: 0, max: 130 },
  { id: "color", type: "radio", options: ["red", "green"] },
  { id: "tags", type: "checkbox", options: ["a", "b", "c"] },
  { id: "city", type: "select", options: ["Oslo", "Lima"] },
  { id: "day", type: "date" },
  { id: "cv", type: "file", max_mb: 1 },
  { id: "stars", type: "rating" },
  { id: "scale", type: "scale", min: 1, max: 7 },
  { id: "nps", type: "nps" },
  { id: "ok", type: "yes_no", show_if: { field: "age", op: "gte", value: 18 } },
  { id: "rank", type: "ranking", options: ["x", "y", "z"] },
  {
    id: "grid",
    type: "matrix",
    rows: [
      { id: "r1", label: "R1" },
      { id: "r2", label: "R2" },
    ],
    columns: ["c1", "c2"],
  },
  { id: "hello", type: "statement", label: "Hi" },
];

const ANSWERS = {
  name: "Ada",
  mail: "ada@example.org",
  age: 36,
  color: "red",
  tags: ["a", "c"],
  stars: 4,
  nps: 9,
  ok: true,
  rank: ["z", "x", "y"],
};

/** The ids of what exists, by kind; read again after each operation (a fuzzed DELETE may remove them). */
export interface Pools {
  slugs: string[];
  formIds: string[];
  fieldIds: string[];
  responseIds: string[];
  webhookIds: string[];
  deliveryIds: string[];
  keyIds: string[];
  uploadKeys: string[];
  previewTokens: string[];
}

export interface FuzzServer {
  s: TestServer;
  pools: Pools;
  /** The key in use: never revoked by the fuzz. */
  keyId: string;
  /** Makes again whatever a fuzzed request removed; `deep` reads every pool again. */
  restore(deep?: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startFuzzServer(kind: DbKind, errors: string[]): Promise<FuzzServer> {
  const s = await startTestServer({
    db: kind,
    env: { FORMDOWN_ADMIN_TOKEN: ADMIN_TOKEN },
    log: { info: () => {}, error: (m, e) => errors.push(`${m} ${(e as Error)?.stack ?? e}`) },
  });
  const receiver = await webhookReceiver();
  const api = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> => {
    const res = await retried(`${s.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = res.headers.get("content-type")?.includes("json");
    return { status: res.status, body: json ? JSON.parse(text) : text };
  };
  const pools: Pools = {
    slugs: [],
    formIds: [],
    fieldIds: FIELDS.map((f) => f.id),
    responseIds: [],
    webhookIds: [],
    deliveryIds: [],
    keyIds: [],
    uploadKeys: [],
    previewTokens: [],
  };
  const keys = (await api("GET", "/api/keys")).body.keys as { id: string }[];
  const keyId = keys[0]!.id;
  let round = 0;
  const submit = (slug: string, fields: object, access?: string) =>
    retried(`${s.url}/api/forms/${slug}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields, ...(access ? { access } : {}) }),
    });

  /** Makes a fixture form again (under a new slug) when a fuzzed request took it away. */
  async function ensure(
    slugs: string[],
    base: string,
    make: (slug: string) => Promise<void>,
  ): Promise<boolean> {
    if (slugs.some((s) => s === base || s.startsWith(`${base}-r`))) return false;
    await make(round ? `${base}-r${round}` : base);
    return true;
  }

  async function makeMulti(slug: string) {
    const made = await api("POST", "/api/forms", {
      title: "Multi",
      slug,
      humanness: false,
      fields: FIELDS,
    });
    if (made.status !== 201) throw new Error(`fixture ${slug}: ${JSON.stringify(made.body)}`);
    const hook = await api("POST", `/api/forms/${slug}/webhooks`, { url: receiver.url });
    for (let i = 0; i < 3; i++) await submit(slug, { ...ANSWERS, age: 20 + i });
    const upload = new FormData();
    upload.set("field", "cv");
    upload.set("file", new File(["%PDF fuzz"], "cv.pdf"));
    const up = await retried(`${s.url}/api/forms/${slug}/uploads`, {
      method: "POST",
      body: upload,
    });
    const url = ((await up.json()) as { url?: string }).url;
    if (url) pools.uploadKeys.push(decodeURIComponent(url.split("/api/uploads/").pop()!));
    if (hook.status === 201) {
      const deliveries = await api("GET", `/api/forms/${slug}/webhooks/${hook.body.id}/deliveries`);
      for (const d of deliveries.body.deliveries ?? []) pools.deliveryIds.push(d.id);
    }
  }

  async function makePassword(slug: string) {
    const body = { title: "Locked", slug, humanness: false, fields: FIELDS.slice(0, 4) };
    if ((await api("POST", "/api/forms", body)).status !== 201) throw new Error(`fixture ${slug}`);
    await api("PUT", `/api/forms/${slug}/access`, { mode: "password", password: PASSWORD });
    await submit(slug, { name: "Bo", age: 40 }, PASSWORD);
  }

  async function makeDraft(slug: string) {
    const body = {
      title: "Draft",
      slug,
      status: "draft",
      humanness: false,
      fields: FIELDS.slice(0, 2),
    };
    const made = await api("POST", "/api/forms", body);
    if (made.status !== 201) throw new Error(`fixture ${slug}: ${JSON.stringify(made.body)}`);
  }

  async function readPools() {
    const forms = (await api("GET", "/api/forms")).body as { slug: string }[];
    pools.slugs = forms.map((f) => f.slug);
    pools.formIds = [];
    pools.responseIds = [];
    pools.webhookIds = [];
    pools.previewTokens = [];
    // the fixtures' resources (the slugs of forms the fuzz made are in the pool too)
    for (const slug of pools.slugs.filter((s) => s.startsWith("fz-"))) {
      const form = (await api("GET", `/api/forms/${slug}`)).body;
      pools.formIds.push(form.form_id);
      if (form.preview_url) pools.previewTokens.push(form.preview_url.split("/preview/").pop());
      const list = (await api("GET", `/api/forms/${slug}/responses?include_test=true`)).body;
      for (const r of list.responses ?? []) pools.responseIds.push(r.id);
      const hooks = (await api("GET", `/api/forms/${slug}/webhooks`)).body;
      for (const h of hooks.webhooks ?? []) pools.webhookIds.push(h.id);
    }
    const live = async () =>
      ((await api("GET", "/api/keys")).body.keys as { id: string; revoked_at: string | null }[])
        .filter((k) => !k.revoked_at && k.id !== keyId)
        .map((k) => k.id);
    pools.keyIds = await live();
    if (pools.keyIds.length < 2) {
      await api("POST", "/api/keys", { name: `spare-${round}` });
      pools.keyIds = await live();
    }
  }

  /**
   * One request when nothing is gone; the pools are read again when a fixture was made again or
   * `deep` (after a DELETE, whose ids would otherwise stay in the pools).
   */
  async function restore(deep = false) {
    const slugs = ((await api("GET", "/api/forms")).body as { slug: string }[]).map((f) => f.slug);
    let made = await ensure(slugs, "fz-multi", makeMulti);
    made = (await ensure(slugs, "fz-pw", makePassword)) || made;
    made = (await ensure(slugs, "fz-draft", makeDraft)) || made;
    round++;
    if (!made && !deep) {
      pools.slugs = slugs;
      return;
    }
    await readPools();
    if (pools.responseIds.length) return;
    // a fuzzed erasure took every response: one again, so response ids stay real
    await submit(pools.slugs.find((s) => s.startsWith("fz-multi"))!, ANSWERS);
    await readPools();
  }

  await restore(true);
  return {
    s,
    pools,
    keyId,
    restore,
    async close() {
      await s.close();
      await new Promise((done) => receiver.server.close(done));
    },
  };
}

/**
 * fetch, once more on a connection the server closed: after a fuzzed request the server answered
 * before reading its body, the pool may hand out that connection again (a client-side reset).
 */
const retried = (url: string, init: RequestInit) => fetch(url, init).catch(() => fetch(url, init));

/** A loopback webhook receiver that answers 200 at once (test_webhook and retries reach it). */
async function webhookReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}
