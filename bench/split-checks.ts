// The checks of bench/split-deploy.ts beyond the load: rate-limit buckets on both entries with a
// spoofed X-Forwarded-For, the short and slug URLs on the API origin, the published pages.
import type postgres from "postgres";
import type { Instance } from "./split-parts.ts";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function submit(entry: Instance, xff?: string): Promise<number> {
  const res = await fetch(`${entry.base}/api/forms/limited/submit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(xff ? { "x-forwarded-for": xff } : {}) },
    body: JSON.stringify({ fields: { note: "limits" } }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** One client behind the proxy, a new spoofed left entry each time, over both entries. */
export async function checkLimits(node: Instance, deno: Instance, db: postgres.Sql) {
  const statuses: Record<number, number> = {};
  const windows = new Set<number>();
  for (let i = 0; i < 40; i++) {
    windows.add(Math.floor(Date.now() / 60_000));
    const status = await submit(i % 2 ? deno : node, `198.51.100.${i}, 203.0.113.50`);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await pause(100);
  }
  // no X-Forwarded-For: the peer (127.0.0.1) on both entries
  for (let i = 0; i < 4; i++) await submit(i % 2 ? deno : node);
  await pause(1500);
  const rows = await db<{ bucket: string; hits: number }[]>`
    select bucket, sum(hits)::int as hits from rate_limits where bucket like 'submit:limited:%'
     group by bucket order by bucket`;
  return [
    `rate limit (20 a minute, ${windows.size} minute window(s)): 40 submits from one client with a new spoofed left X-Forwarded-For each time, alternating Node and Deno: ${statuses[201] ?? 0} accepted, ${statuses[429] ?? 0} refused 429`,
    `rate-limit buckets in the shared table (both entries): ${rows.map((r) => `${r.bucket} (${r.hits} hits)`).join(", ")}`,
  ];
}

/**
 * Every form has a page (SPEC §22): a form the pages build holds is linked on the static host, one
 * made over REST only (no file, no built page) on the API origin, which renders it; the short and
 * slug URLs answer on the API origin; the bundled examples were never built.
 */
export async function checkLinks(
  node: Instance,
  deno: Instance,
  key: string,
  pagesUrl: string,
  _outDir: string,
) {
  const detail = async (slug: string) =>
    (await (
      await fetch(`${node.base}/api/forms/${slug}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { short_url: string; public_url: string };
  const follow = async (url: string) => {
    const res = await fetch(url, { redirect: "manual" });
    const to = res.headers.get("location") ?? "";
    const page = to ? await fetch(to) : null;
    const html = page ? await page.text() : "";
    return { status: res.status, to, page: page?.status ?? 0, html };
  };
  const split = await detail("split");
  const short = await follow(split.short_url);
  const slugOnDeno = await follow(`${deno.base}/split`);
  const example = await fetch(`${pagesUrl}/@me/contact`);
  const apiInPage = short.html.includes(`"${node.base}`) || short.html.includes(node.base);
  // made over REST (through the Deno entry): no file, so no page in the build
  const made = await fetch(`${deno.base}/api/forms`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      title: "Made over REST",
      slug: "made-over-rest",
      fields: [{ id: "note", type: "text" }],
    }),
  });
  const rest = made.status === 201 ? await detail("made-over-rest") : null;
  const restPage = rest ? await fetch(rest.public_url) : null;
  const restShort = rest ? await fetch(rest.short_url) : null;
  return [
    `short_url ${split.short_url}: ${short.status} → ${short.to} → ${short.page}; the Deno entry's /split: ${slugOnDeno.status} → ${slugOnDeno.page}`,
    `published pages: /@acme/split ${short.page} (posts to ${apiInPage ? node.base : "?"}, ${short.html.includes('"//api') ? "a //api path!" : "no //api path"}); bundled example /@me/contact ${example.status} (not built)`,
    `a form made over REST (create ${made.status}): public_url ${rest?.public_url ?? "-"} ${restPage?.status ?? "-"}; short_url ${restShort?.status ?? "-"} at ${restShort?.url ?? "-"}`,
  ];
}
