// Signing secrets are stored AES-GCM encrypted, so the webhooks table alone does not hand them
// over. The key is FORMDOWN_WEBHOOK_KEY when set (then a database dump alone is not enough);
// otherwise a random key kept in server_secrets, which at least keeps them out of plain sight.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export interface SecretBox {
  seal(secret: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** A box whose AES key is SHA-256 of the given key material. */
export async function secretBox(material: string): Promise<SecretBox> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(material));
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  return {
    async seal(secret) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv },
        key,
        encoder.encode(secret),
      );
      return `v1:${b64(iv)}:${b64(new Uint8Array(data))}`;
    },
    async open(sealed) {
      const [version, iv, data] = sealed.split(":");
      if (version !== "v1" || !iv || !data) throw new Error("unreadable webhook secret");
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: unb64(iv) },
        key,
        unb64(data),
      );
      return decoder.decode(plain);
    },
  };
}

interface HasDb {
  db: { query<T>(text: string, params?: unknown[]): Promise<T[]> };
  config: { webhooks: { key: string | undefined } };
}

const boxes = new WeakMap<object, Promise<SecretBox>>();

/** The context's box, made once: FORMDOWN_WEBHOOK_KEY, else a key shared through the database. */
export function boxFor(ctx: HasDb): Promise<SecretBox> {
  let box = boxes.get(ctx);
  if (!box) {
    box = (async () => {
      if (ctx.config.webhooks.key) return secretBox(ctx.config.webhooks.key);
      const fresh = b64(crypto.getRandomValues(new Uint8Array(32)));
      await ctx.db.query(
        "insert into server_secrets (name, value) values ('webhooks', $1) on conflict (name) do nothing",
        [fresh],
      );
      const [row] = await ctx.db.query<{ value: string }>(
        "select value from server_secrets where name = 'webhooks'",
      );
      return secretBox(row!.value);
    })();
    box.catch(() => boxes.delete(ctx));
    boxes.set(ctx, box);
  }
  return box;
}
