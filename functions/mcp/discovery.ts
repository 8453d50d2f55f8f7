import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { PROTOCOL_VERSIONS } from "./protocol.ts";
import { DESCRIPTION, SERVER_INFO, TOOLS } from "./registry.ts";

/** `io.example.forms/mcp` from `https://forms.example.io`: the card's reverse-DNS name. */
const cardName = (base: string) => `${new URL(base).hostname.split(".").reverse().join(".")}/mcp`;

/** The three discovery documents, all generated from the one tool registry. */
function discoveryDocuments(baseUrl: string) {
  const endpoint = `${baseUrl}/api/mcp`;
  const auth = { type: "bearer", description: "An API key (fd_…) as Authorization: Bearer <key>" };
  const mcp = {
    name: SERVER_INFO.name,
    version: SERVER_INFO.version,
    description: DESCRIPTION,
    endpoint,
    transport: "streamable-http",
    authentication: auth,
    protocolVersions: PROTOCOL_VERSIONS,
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: t.annotations,
    })),
  };
  const card = {
    $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
    name: cardName(baseUrl),
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description: DESCRIPTION,
    remotes: [
      {
        type: "streamable-http",
        url: endpoint,
        supportedProtocolVersions: PROTOCOL_VERSIONS,
        authentication: auth,
      },
    ],
    tools: TOOLS.map((t) => ({ name: t.name, description: t.description })),
  };
  const catalog = {
    specVersion: "1.0",
    entries: [
      {
        identifier: `urn:mcp:server:${card.name}`,
        type: "application/mcp-server-card+json",
        url: `${endpoint}/server-card`,
      },
    ],
  };
  return { mcp, card, catalog };
}

export function discoveryRoutes(app: Hono<Env>, ctx: AppContext): void {
  const send = (body: object, type = "application/json") =>
    new Response(JSON.stringify(body, null, 2), {
      headers: {
        "content-type": type,
        "access-control-allow-origin": "*",
        "cache-control": "public, max-age=300",
      },
    });
  app.get("/.well-known/mcp.json", () => send(discoveryDocuments(ctx.config.baseUrl).mcp));
  app.get("/api/mcp/server-card", () =>
    send(discoveryDocuments(ctx.config.baseUrl).card, "application/mcp-server-card+json"),
  );
  app.get("/.well-known/mcp/catalog.json", () =>
    send(discoveryDocuments(ctx.config.baseUrl).catalog),
  );
}
