// `_headers` for static hosts that read one (Netlify, Cloudflare Pages): each form page's
// frame-ancestors from settings.embed_origins, which only an HTTP header can carry (SPEC §13),
// and the pages list revalidated on every read.
import { getCollection } from "astro:content";
import type { Form } from "../core/schema.ts";
import { frameAncestors } from "../lib/frame-ancestors.ts";

export const prerender = true;

export function getStaticPaths() {
  return [{ params: { headers: "_headers" } }];
}

export async function GET() {
  const forms = await getCollection("forms");
  const rules = forms.map((entry: { id: string; data: Form }) => {
    const csp = frameAncestors(entry.data.settings.embed_origins);
    return `/${entry.id}\n  Content-Security-Policy: ${csp}\n/${entry.id}/*\n  Content-Security-Policy: ${csp}\n`;
  });
  // the list of pages the API reads (src/pages/formdown-pages.json.ts): never served stale
  const list = "/formdown-pages.json\n  Cache-Control: no-cache\n";
  return new Response(rules.join("") + list, { headers: { "content-type": "text/plain" } });
}
