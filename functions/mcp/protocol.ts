/**
 * The one list of MCP protocol revisions this server speaks, newest first. Discovery, the server
 * card, `initialize` negotiation, `server/discover` and the transport's header errors all read it.
 * 2026-07-28 is served without `initialize` (per-request `_meta`, `server/discover`); the others
 * through the `initialize` handshake, which by design never answers a 2026 revision.
 */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];
