// On a draft's preview page only (`formdown dev`, SPEC §21): asks the server once a second for
// the draft's version and reloads the page when a saved file changed it. Live pages never load
// this script (FormPage renders PreviewReload only with a preview token).
const def = JSON.parse(document.getElementById("fd-def")?.textContent ?? "{}") as {
  apiBase?: string;
  preview?: string | null;
};
let seen: number | null = null;

async function poll(): Promise<void> {
  try {
    const res = await fetch(`${def.apiBase ?? ""}/api/preview/${def.preview}`, {
      cache: "no-store",
    });
    if (res.ok) {
      const { version } = (await res.json()) as { version: number };
      if (seen !== null && version !== seen) return location.reload();
      seen = version;
    }
  } catch {
    // the server is restarting: ask again in a second
  }
  setTimeout(poll, 1000);
}

if (def.preview) void poll();
