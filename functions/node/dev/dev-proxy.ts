import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { SCRIPT_PATH } from "./dev-pages.ts";

const HOP = new Set([
  "host",
  "connection",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "keep-alive",
]);

/** Passes a request to the embedded server; a form page gets the reload script. */
export async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  inner: string,
  formPage: boolean,
) {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined && !HOP.has(k)) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const upstream = await fetch(`${inner}${req.url}`, {
    method: req.method ?? "GET",
    headers,
    redirect: "manual",
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const out: Record<string, string> = {};
  upstream.headers.forEach((v, k) => {
    if (!HOP.has(k)) out[k] = v;
  });
  const html = (upstream.headers.get("content-type") ?? "").includes("text/html");
  if (formPage && html) {
    const text = (await upstream.text()).replace(
      "</head>",
      `<script src="${SCRIPT_PATH}" defer></script></head>`,
    );
    res.writeHead(upstream.status, { ...out, "cache-control": "no-store" });
    return void res.end(text);
  }
  res.writeHead(upstream.status, out);
  if (!upstream.body) return void res.end();
  Readable.fromWeb(upstream.body as never).pipe(res);
}
