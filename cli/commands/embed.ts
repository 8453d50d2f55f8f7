import type { CAC } from "cac";
import { api } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say } from "../lib/output.ts";

/** The HTML an author pastes into their site to embed a form (SPEC §13). */
export function embedSnippet(publicUrl: string): string {
  const script = new URL("/embed.js", publicUrl).href;
  return `<div data-formdown="${publicUrl}"></div>\n<script src="${script}" async></script>`;
}

export function registerEmbed(cli: CAC): void {
  cli
    .command("embed <slug>", "Print the HTML that embeds a form in another site")
    .option("--json", "JSON ({slug, public_url, embed_origins, html}) instead of the snippet")
    .example("formdown embed contact > snippet.html")
    .action(async (slug: string, opts: { json?: boolean; url?: string; key?: string }) => {
      const form = await api<{
        slug: string;
        public_url: string;
        config: { settings?: { embed_origins?: string[] } };
      }>(resolveSettings(opts), "GET", `/api/forms/${encodeURIComponent(slug)}`);
      const origins = form.config.settings?.embed_origins ?? ["*"];
      const html = embedSnippet(form.public_url);
      if (opts.json)
        return json({ slug: form.slug, public_url: form.public_url, embed_origins: origins, html });
      out(html);
      if (!origins.includes("*"))
        say(`Only these sites may embed it (settings.embed_origins): ${origins.join(", ")}`);
    });
}
