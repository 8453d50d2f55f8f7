import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { authenticate, clientIp, type Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
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
    // the SDK reads the body itself, of any size: refuse a declared one over 1 MiB first
    if (Number(c.req.header("content-length") ?? 0) > 1024 * 1024)
      raise("payload_too_large", "The request body is over 1048576 bytes.");
    const request = withJsonAccept(c.req.raw);
    const [sdk, server] = await loadSdk();
    if (await sdk.isLegacyRequest(request.clone()))
      return legacy(sdk, server, ctx, account, request);
    const answer = await modernHandler(sdk, server).fetch(request, {
      authInfo: { token: "api-key", clientId: account.handler, scopes: [], extra: { account } },
    });
    return answer.status === 400 ? withOurVersions(answer) : answer;
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
export function logMcpError(ctx: Pick<AppContext, "log">, error: unknown): void {
  const refused = error instanceof Error ? REFUSED.exec(error.message) : null;
  if (!refused) ctx.log.error("mcp", error);
  else
    ctx.log.info(`mcp: refused a malformed request (${refused[1] ?? refused[2] ?? "media-type"})`);
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

/** A plain POST may send no Accept (or a wildcard); the transport wants both media types listed. */
function withJsonAccept(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && accept.includes("text/event-stream")) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request, { headers });
}
