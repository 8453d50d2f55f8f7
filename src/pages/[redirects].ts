// `_redirects` for static hosts that read one (Netlify, Cloudflare Pages): a renamed form's old
// URL answers 301 to its new one, as on the embedded server (SPEC §16). The old path also gets a
// page that forwards (src/pages/@[handler]/[slug].astro) for a plain static server.
import { getCollection } from "astro:content";
import { redirectsFile } from "../core/form-renames.ts";
import { movedForms } from "../lib/moved-forms.ts";

export const prerender = true;

export function getStaticPaths() {
  return [{ params: { redirects: "_redirects" } }];
}

export async function GET() {
  const forms = await getCollection("forms");
  const body = redirectsFile(movedForms(forms.map((entry: { id: string }) => entry.id)));
  return new Response(body, { headers: { "content-type": "text/plain" } });
}
