import type { AppContext } from "../../context.ts";

/** The MCP Apps (SPEC §18; the extension `io.modelcontextprotocol/ui`, ext-apps 2.x). */
export const FORM_APP = "ui://formdown/form";
export const REPORT_APP = "ui://formdown/report";
/** ext-apps' RESOURCE_MIME_TYPE. */
const APP_MIME = "text/html;profile=mcp-app";

/** Each app is one document with its script and styles inline: it asks the host for no origin. */
const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const APPS = [
  {
    uri: FORM_APP,
    name: "form-app",
    title: "Form",
    description: "The respondent's page of a form; Try it stores a test response",
    doc: "form",
  },
  {
    uri: REPORT_APP,
    name: "report-app",
    title: "Report",
    description: "A form's report with charts; a click on a bar lists those responses",
    doc: "report",
  },
] as const;

/** The apps' entries of resources/list, where this runtime can build them. */
export const uiResources = (ctx: AppContext) =>
  ctx.apps ? APPS.map(({ doc: _doc, ...r }) => ({ ...r, mimeType: APP_MIME, _meta: UI_META })) : [];

/** An app's document for resources/read, or null when the URI is not an app. */
export async function readUiResource(ctx: AppContext, uri: string) {
  const app = APPS.find((a) => a.uri === uri);
  if (!app || !ctx.apps) return null;
  return { uri, mimeType: APP_MIME, text: await ctx.apps.document(app.doc), _meta: UI_META };
}
