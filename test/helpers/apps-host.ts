// A chat host for MCP Apps, as small as one can be: a Chromium page that loads ext-apps'
// `AppBridge`, puts an app's document (read from the server's ui:// resource) into a sandboxed
// iframe, connects the two over `PostMessageTransport`, hands the app a tool's input and result,
// and forwards the app's tool calls to a real MCP client on the running server.
import type { Client } from "@modelcontextprotocol/client";
import type { Frame, Page } from "playwright-core";
import type { SuiteBrowser } from "./browser.ts";

const root = new URL("../../", import.meta.url).pathname;

/** What a host enforces from `_meta.ui.csp` when it declares no domain: nothing outside loads. */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

let bundle: Promise<string> | null = null;

/** ext-apps' host side (AppBridge, PostMessageTransport) bundled for the browser, once. */
function hostScript(): Promise<string> {
  bundle ??= import("esbuild").then(async ({ build }) => {
    const out = await build({
      stdin: {
        contents: `import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
window.startApp = async (html, input, result, late) => {
  const frame = document.createElement("iframe");
  frame.sandbox = "allow-scripts";
  frame.style.cssText = "width:760px;height:1400px;border:0";
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { serverTools: {} }, { hostContext: { theme: "light" } });
  bridge.oncalltool = (params) => window.hostCallTool(params.name, params.arguments ?? {});
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: input });
    await bridge.sendToolResult(result);
  };
  const connect = () => bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  if (!late) {
    await connect();
    frame.srcdoc = html;
    return;
  }
  // the app first: its document loads and its first message reaches a host not listening yet
  const spoke = new Promise((resolve) => {
    const heard = (event) => {
      if (event.source !== frame.contentWindow) return;
      removeEventListener("message", heard);
      resolve();
    };
    addEventListener("message", heard);
  });
  frame.srcdoc = html;
  await spoke;
  await connect();
};`,
        resolveDir: root,
        loader: "js",
      },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      logLevel: "error",
    });
    return out.outputFiles[0]!.text;
  });
  return bundle;
}

export interface AppHost {
  page: Page;
  /** The app's frame, once the host put it in. */
  app(): Promise<Frame>;
  /** The tools the app called, in order. */
  calls: { name: string; args: Record<string, unknown> }[];
  errors: string[];
}

/**
 * Shows `uri`'s app for one tool call: reads the resource through `client`, calls the tool,
 * and passes the app its arguments and result as a host does. The host connects before the
 * app's document loads, or with `connect: "after"` once the app has loaded and spoken first.
 */
export async function hostApp(
  browser: SuiteBrowser,
  client: Client,
  uri: string,
  tool: string,
  args: Record<string, unknown>,
  connect: "before" | "after" = "before",
): Promise<AppHost> {
  const { contents } = await client.readResource({ uri });
  const html = (contents[0] as { text: string }).text.replace(
    "<head>",
    `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`,
  );
  const result = await client.callTool({ name: tool, arguments: args });
  const page = await browser.newPage();
  const calls: AppHost["calls"] = [];
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("Content Security Policy"))
      errors.push(m.text());
  });
  await page.exposeFunction("hostCallTool", async (name: string, a: Record<string, unknown>) => {
    calls.push({ name, args: a });
    return client.callTool({ name, arguments: a });
  });
  await page.setContent(`<!doctype html><html><body><script>${await hostScript()}</script>`);
  await page.evaluate(
    ([h, i, r, late]) =>
      (window as unknown as { startApp(...a: unknown[]): Promise<void> }).startApp(h, i, r, late),
    [html, args, result, connect === "after"] as const,
  );
  const app = async () => {
    await page.waitForFunction(() => document.querySelector("iframe")?.srcdoc);
    const handle = await page.$("iframe");
    return (await handle!.contentFrame())!;
  };
  return { page, app, calls, errors };
}
