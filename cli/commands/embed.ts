import type { CAC } from "cac";
import { api } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say } from "../lib/output.ts";

/** The HTML an author pastes into their site to embed a form (SPEC §13). */
export function embedSnippet(publicUrl: string, lang?: string): string {
  const script = new URL("/embed.js", publicUrl).href;
  const language = lang ? ` data-lang="${lang}"` : "";
  return `<div data-formdown="${publicUrl}"${language}></div>\n<script src="${script}" async></script>`;
}

export function registerEmbed(cli: CAC): void {
  cli
    .command("embed <slug>", "Print the HTML that embeds a form in another site")
    .option("--json", "JSON ({slug, public_url, embed_origins, html}) instead of the snippet")
    .option("--lang <lang>", "Show the form in one of its languages (data-lang)")
    .example("formdown embed contact > snippet.html")
    .example("formdown embed event --lang de")
    .action(
      async (slug: string, opts: { json?: boolean; lang?: string; url?: string; key?: string }) => {
        // with --lang the server refuses a language the form does not have
        const form = await api<{
          slug: string;
          public_url: string;
          config: { settings?: { embed_origins?: string[] } };
          languages?: string[];
        }>(resolveSettings(opts), "GET /api/forms/:slug", { slug, lang: opts.lang });
        const origins = form.config.settings?.embed_origins ?? ["*"];
        const html = embedSnippet(form.public_url, opts.lang);
        if (opts.json)
          return json({
            slug: form.slug,
            public_url: form.public_url,
            embed_origins: origins,
            html,
          });
        out(html);
        if (!origins.includes("*"))
          say(`Only these sites may embed it (settings.embed_origins): ${origins.join(", ")}`);
      },
    );
}
