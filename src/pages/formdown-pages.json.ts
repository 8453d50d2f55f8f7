// The forms this build holds a page for (SPEC §22): the API reads it from the static host
// (functions/links/page-origins.ts) and links a form there only when its page is here; every
// other form's links name the API origin, whose server renders it.
import { getCollection } from "astro:content";

export const prerender = true;

export async function GET() {
  const forms = await getCollection("forms");
  const pages = forms.map((entry: { id: string }) => entry.id).sort();
  return new Response(JSON.stringify({ pages }), {
    headers: { "content-type": "application/json" },
  });
}
