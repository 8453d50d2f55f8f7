// SPEC §22 "Operator hygiene": several instances need one upload storage. An upload one instance
// wrote to its own disk is 404 on every other, and nothing at a request says why. So each server
// on Postgres writes a small file into its storage and records its key in the database; an
// instance that cannot read back the file of another instance running now keeps its uploads
// apart from it. It says so in its log at start, and `formdown doctor` fails on it. (PGlite
// serves one process only: nothing to compare.)
import type { AppContext, FileStorage } from "../context.ts";

/** An instance not seen for this long is taken to be stopped. */
const ALIVE_SECONDS = 600;
/** How often a running instance renews its row (the Node sweep, and health probes on Deno). */
const RENEW_MS = 60_000;
/** Rows (and their files) of instances gone for this long are removed. */
const KEEP_SECONDS = 86_400;

interface Probe {
  key: string;
  renewedAt: number;
  written: Promise<void>;
}
/** This process's probe per storage (a test runs several servers in one process). */
const probes = new WeakMap<FileStorage, Probe>();

/** Writes this instance's probe file and row once, then renews the row at most once a minute. */
export async function renewStorageProbe(ctx: AppContext): Promise<void> {
  if (ctx.db.kind !== "postgres") return;
  const probe = probes.get(ctx.storage);
  if (!probe) return writeProbe(ctx);
  await probe.written;
  if (Date.now() - probe.renewedAt < RENEW_MS) return;
  probe.renewedAt = Date.now();
  await ctx.db.query("update storage_probes set seen_at = now() where key = $1", [probe.key]);
}

function writeProbe(ctx: AppContext): Promise<void> {
  const key = `formdown-probes/${crypto.randomUUID()}`;
  const written = (async () => {
    await ctx.storage.put(key, new TextEncoder().encode(ctx.config.instance), "text/plain");
    await ctx.db.query(
      `insert into storage_probes (key, instance, storage) values ($1, $2, $3)
       on conflict (key) do update set seen_at = now()`,
      [key, ctx.config.instance, ctx.storage.where],
    );
    const gone = await ctx.db.query<{ key: string }>(
      `delete from storage_probes where seen_at < now() - make_interval(secs => $1) returning key`,
      [KEEP_SECONDS],
    );
    for (const row of gone) await ctx.storage.remove(row.key).catch(() => {});
  })();
  probes.set(ctx.storage, { key, renewedAt: Date.now(), written });
  // a storage or database that failed this time is tried again by the next call
  written.catch(() => probes.delete(ctx.storage));
  return written;
}

/**
 * Null when every instance running now (seen in the last ten minutes) stores uploads where this
 * one can read them; else the problem in plain words. Postgres only.
 */
export async function sharedStorageProblem(ctx: AppContext): Promise<string | null> {
  if (ctx.db.kind !== "postgres") return null;
  await renewStorageProbe(ctx);
  const mine = probes.get(ctx.storage)?.key ?? "";
  const others = await ctx.db.query<{ key: string; instance: string; storage: string }>(
    `select key, instance, storage from storage_probes
      where key <> $1 and seen_at > now() - make_interval(secs => $2)
      order by seen_at desc limit 20`,
    [mine, ALIVE_SECONDS],
  );
  for (const other of others) {
    // a storage that does not answer now says nothing either way
    const found = await ctx.storage.get(other.key).catch(() => undefined);
    await found?.data.cancel();
    if (found !== null) continue;
    return `Uploads are not shared: instance ${other.instance} keeps them in ${other.storage}, and a file it wrote there cannot be read by this instance (${ctx.config.instance}), which keeps them in ${ctx.storage.where}; an upload taken by one is 404 on the other. Give every instance the same storage: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (README, Deploy step 2), or a FORMDOWN_DATA_DIR on a disk they all mount.`;
  }
  return null;
}
