import type { Hono } from "hono";
import { MAX_ERROR_BYTES } from "../../src/core/bounded-failure.ts";
import { clip } from "../../src/core/quote.ts";
import { authenticate, clientIp, type Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { jsonShape, MAX_BODY, MAX_DEPTH, MAX_JSON_KEYS, readBytes } from "../http/body.ts";
import { failureResponse } from "../http/errors.ts";
import type { Account } from "../services/accounts.ts";
import { discoveryRoutes } from "./discovery.ts";
import { originAllowed } from "./origin.ts";
import { PROTOCOL_VERSIONS } from "./protocol.ts";

type Sdk = typeof import("@modelcontextprotocol/server");
type ServerModule = typeof import("./server.ts");

/**
 * The MCP SDK is loaded with the first MCP request, not at start-up: a server that only takes
 * submits and API calls stays about 7 MB smaller.
 */
let loading: Promise<[Sdk, ServerModule]> | null = null;
const loadSdk = () =>
  (loading ??= Promise.all([import("@modelcontextprotocol/server"), import("./server.ts")]));

/**
 * POST /api/mcp, stateless, JSON answers, for three kinds of client (SPEC §7):
 * 2026-07-28 clients go to the v2 SDK's per-request handler; 2025-era clients (initialize) and a
 * bare JSON-RPC POST go to the SDK's streamable HTTP transport in JSON mode, with the Accept
 * header completed so a client that sends only Content-Type still gets a plain JSON answer.
 */
export function mcpRoutes(app: Hono<Env>, ctx: AppContext): void {
  // created on the first modern request (the SDK logs a note about JSON mode when it is built)
  let modern: ReturnType<Sdk["createMcpHandler"]> | null = null;
  const modernHandler = ({ createMcpHandler }: Sdk, { createMcpServer }: ServerModule) =>
    (modern ??= createMcpHandler(
      // the route authenticated the key; the account rides in authInfo to the per-request factory
      ({ authInfo }) => createMcpServer(ctx, (authInfo!.extra as { account: Account }).account),
      {
        legacy: "reject",
        responseMode: "json",
        onerror: (e) => logMcpError(ctx, e),
      },
    ));

  app.post("/api/mcp", async (c) => {
    if (!originAllowed(ctx.config, c.req.header("origin"), c.req.header("host")))
      return failureResponse({
        code: "forbidden",
        error: `This Origin may not call the MCP server: only pages of ${ctx.config.baseUrl}, or clients that send no Origin.`,
      });
    const account = await authenticate(ctx, c.req.header("authorization"));
    account.ip = clientIp(c, ctx.config.trustedProxies) ?? null;
    // read here, at most 1 MiB: the SDK would read a body of any size
    const bytes = await readBytes(c, MAX_BODY);
    // a message of thousands of keys is refused before the SDK, whose request schemas walk each
    // key of params, arguments and _meta (91,920 held the event loop 0.4-3 s; SPEC §23)
    const crowded = crowdedMessage(bytes);
    if (crowded)
      return Response.json(
        { jsonrpc: "2.0", id: crowded.id, error: { code: crowded.code, message: crowded.error } },
        { status: crowded.id === null ? 400 : 200 },
      );
    const request = withJsonAccept(c.req.raw, bytes);
    const [sdk, server] = await loadSdk();
    if (await sdk.isLegacyRequest(request.clone()))
      return boundedError(await legacy(sdk, server, ctx, account, request));
    const answer = await modernHandler(sdk, server).fetch(request, {
      authInfo: { token: "api-key", clientId: account.handler, scopes: [], extra: { account } },
    });
    return boundedError(answer.status === 400 ? await withOurVersions(answer) : answer);
  });
  // stateless: no SSE stream to GET, no session to DELETE
  const notAllowed = () =>
    Response.json(
      {
        error: "The MCP endpoint is stateless: POST JSON-RPC messages to it.",
        code: "invalid_request",
      },
      { status: 405, headers: { allow: "POST" } },
    );
  app.get("/api/mcp", notAllowed);
  app.delete("/api/mcp", notAllowed);
  discoveryRoutes(app, ctx);
}

async function legacy(
  { WebStandardStreamableHTTPServerTransport }: Sdk,
  { createMcpServer }: ServerModule,
  ctx: AppContext,
  account: Account,
  request: Request,
): Promise<Response> {
  const server = createMcpServer(ctx, account);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}

// What the SDK reports about a request it refused (it answered the client 4xx): the client's
// fault, not the server's — one short line, no stack, no text of the client's (SPEC §23).
const REFUSED =
  /^(?:Rejected inbound request \(([\w-]+)\)|Rejected 2025-era request on a modern-only endpoint \(([\w-]+)\)|(Unsupported Media Type))/;

/** The SDK's error report: a refused request as one short line, anything else with its stack. */
function logMcpError(ctx: Pick<AppContext, "log">, error: unknown): void {
  const refused = error instanceof Error ? REFUSED.exec(error.message) : null;
  if (!refused) ctx.log.error("mcp", error);
  else
    ctx.log.info(`mcp: refused a malformed request (${refused[1] ?? refused[2] ?? "media-type"})`);
}

/**
 * An error answer is at most 64 KB (SPEC §23): a message that quotes what came (an unknown
 * tool's or prompt's name, a resource's URI, the SDK's list of a malformed request's problems)
 * is cut short, in a 2025-03-26 batch each error to its share (40 unknown names of 24,000
 * characters answered 984 KB). Answers under the bound, and results, go as they are.
 */
async function boundedError(answer: Response): Promise<Response> {
  if (!/json/i.test(answer.headers.get("content-type") ?? "")) return answer;
  const text = await answer.text();
  const same = () => new Response(text, { status: answer.status, headers: answer.headers });
  if (text.length <= MAX_ERROR_BYTES) return same();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    return same();
  }
  const items = (Array.isArray(body) ? body : [body]) as ({
    error?: { message?: unknown; data?: unknown };
  } | null)[];
  // a quoted character may take 6 bytes as JSON (`\u0001`): each error's share is measured so
  const share = Math.min(2_000, Math.floor(MAX_ERROR_BYTES / 8 / Math.max(1, items.length)));
  let cut = false;
  for (const error of items.map((item) => item?.error)) {
    if (!error || typeof error !== "object" || typeof error.message !== "string") continue;
    error.message = clip(error.message, share);
    if (JSON.stringify(error.data ?? null).length > share) delete error.data;
    cut = true;
  }
  if (!cut) return same();
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: answer.status, headers });
}

/**
 * The SDK's modern entry names only the 2026 revisions when it refuses a version (-32022); the
 * client is told the one list instead, the same as discovery, the card and the legacy transport.
 */
async function withOurVersions(answer: Response): Promise<Response> {
  const body = (await answer.json()) as {
    error?: { code: number; message: string; data?: { supported?: string[] } };
  };
  if (body.error?.code === -32022) {
    body.error.data = { ...body.error.data, supported: PROTOCOL_VERSIONS };
    body.error.message = `${body.error.message} (supported versions: ${PROTOCOL_VERSIONS.join(", ")})`;
  }
  return Response.json(body, { status: 400, headers: answer.headers });
}

/**
 * The request as the SDK reads it, with the body already read. A plain POST may send no Accept
 * (or a wildcard); the transport wants both media types listed.
 */
function withJsonAccept(request: Request, body: Uint8Array): Request {
  const headers = new Headers(request.headers);
  const accept = headers.get("accept") ?? "";
  if (!(accept.includes("application/json") && accept.includes("text/event-stream")))
    headers.set("accept", "application/json, text/event-stream");
  headers.delete("transfer-encoding");
  headers.set("content-length", String(body.byteLength));
  return new Request(request.url, { method: request.method, headers, body: body as BodyInit });
}

/** Top-level arguments of one tool call: the SDK's schema walks each; a tool takes a dozen or so. */
const MAX_ARGUMENTS = 100;
/** Keys of a message outside its tool arguments (params, _meta, capabilities): the SDK walks them. */
const MAX_ENVELOPE_KEYS = 200;
/** Messages in one JSON-RPC batch (2025-03-26 clients; later revisions send one). */
const MAX_BATCH = 100;
const utf8 = new TextDecoder();

/**
 * What is wrong with a message (or batch) that nests too deep or names too many keys, or null.
 * Counted in one pass over the text first, so an ordinary message is not parsed twice: deeper
 * than MAX_DEPTH (where the count stops), more than MAX_JSON_KEYS in all, more than MAX_ARGUMENTS arguments, more than MAX_ENVELOPE_KEYS outside the arguments
 * (whose values are the tool's to check), or a long batch.
 */
function crowdedMessage(
  bytes: Uint8Array,
): { id: string | number | null; code: number; error: string } | null {
  const text = utf8.decode(bytes);
  const shape = jsonShape(text);
  const n = (count: number) => count.toLocaleString("en-US");
  const refused = (error: string, id: unknown = null, code = -32600) => ({
    id: typeof id === "string" || typeof id === "number" ? id : null,
    code,
    error,
  });
  if (!shape.deeper && shape.members <= MAX_ARGUMENTS) return null;
  if (shape.members > MAX_JSON_KEYS)
    return refused(
      `The request names ${n(shape.members)} keys; a message takes at most ${n(MAX_JSON_KEYS)}.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  // the count stops where the nesting passes MAX_DEPTH: a message that opened 65 arrays before
  // 90,000 keys went to the SDK uncounted (2.2 s of one core; review of 2026-11-28)
  if (shape.deeper)
    return refused(
      `The request nests deeper than ${MAX_DEPTH} levels; no tool takes that.`,
      (parsed as { id?: unknown } | null)?.id,
      -32602,
    );
  const batch = Array.isArray(parsed);
  const messages = batch ? (parsed as unknown[]) : [parsed];
  if (messages.length > MAX_BATCH)
    return refused(`The batch holds ${n(messages.length)} messages; send at most ${MAX_BATCH}.`);
  let inArguments = 0;
  for (const message of messages) {
    const { id, params } = (message ?? {}) as { id?: unknown; params?: unknown };
    const args = (params as { arguments?: unknown } | null)?.arguments;
    const count = keysOf(args);
    if (count > MAX_ARGUMENTS)
      return refused(
        `The call names ${n(count)} arguments; no tool takes more than ${MAX_ARGUMENTS}.`,
        batch ? null : id,
        -32602,
      );
    inArguments += keysWithin(args);
  }
  const outside = shape.members - inArguments;
  return outside > MAX_ENVELOPE_KEYS
    ? refused(
        `The request names ${n(outside)} keys outside tool arguments; at most ${n(MAX_ENVELOPE_KEYS)}.`,
        batch ? null : (parsed as { id?: unknown } | null)?.id,
        -32602,
      )
    : null;
}

const keysOf = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).length : 0;

/** The keys of every object in a value, its own and its nested ones (at most 64 levels deep). */
function keysWithin(value: unknown): number {
  if (!value || typeof value !== "object") return 0;
  let count = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) count += keysWithin(item);
  return count + keysOf(value);
}
