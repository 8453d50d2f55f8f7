// The MCP half of the generated fuzz: every tool tools/list declares, its arguments generated from
// its inputSchema, called through the real MCP SDK client.
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import fc from "fast-check";
import { fromSchema, type Hints, type Schema } from "./fuzz-arbitraries.ts";
import { hostileValue } from "./fuzz-hostile.ts";

export interface Tool {
  name: string;
  inputSchema: Schema;
  annotations?: { readOnlyHint?: boolean };
}

export async function connectClient(base: string, key: string): Promise<Client> {
  const client = new Client(
    { name: "fuzz", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit }),
  );
  return client;
}

type Args = Record<string, unknown>;
const isObject = (v: unknown): v is Args => !!v && typeof v === "object" && !Array.isArray(v);

/** A tool's arguments: always an object (the SDK sends nothing else), declared or hostile inside. */
export function argumentsFor(tool: Tool, hints: Hints): fc.Arbitrary<Args> {
  const g = fromSchema(tool.inputSchema, tool.inputSchema as object, hints);
  return fc
    .oneof(
      { weight: 2, arbitrary: g.valid },
      { weight: 3, arbitrary: g.mixed },
      {
        weight: 1,
        arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { maxKeys: 3 }),
      },
    )
    .map((v) => (isObject(v) ? v : { value: v }));
}

/**
 * What the fuzz asserts of a tool call: a result (a tool's refusal as `isError` with `{error,
 * code}`, never `internal_error`) or a JSON-RPC error other than an internal one, never a failure
 * of the transport. `outcome` names the kind of answer (`ok`, the error code, `rpc -32602`).
 */
export async function call(
  client: Client,
  name: string,
  args: Args,
): Promise<{ outcome: string; problem: string | null }> {
  try {
    const result = await client.callTool({ name, arguments: args }, { timeout: 30_000 });
    if (!result.isError) return { outcome: "ok", problem: null };
    const body = result.structuredContent as { error?: unknown; code?: unknown } | undefined;
    if (typeof body?.error !== "string" || typeof body.code !== "string")
      return {
        outcome: "isError",
        problem: `isError without {error, code}: ${JSON.stringify(result).slice(0, 300)}`,
      };
    const problem = body.code === "internal_error" ? `internal_error: ${body.error}` : null;
    return { outcome: body.code, problem };
  } catch (error) {
    const e = error as Error;
    if (error instanceof ProtocolError && error.code !== ProtocolErrorCode.InternalError) {
      const outside = /output ?schema|structured ?content/i.test(e.message);
      return {
        outcome: `rpc ${error.code}`,
        problem: outside ? `answer outside its outputSchema: ${e.message}` : null,
      };
    }
    // a message over the route's body bound is refused as HTTP 413 with {error, code} before it is
    // read (functions/mcp/route.ts): an answer, for arguments that big (a run of escaped NULs)
    if (
      /"code":"payload_too_large"/.test(e.message) &&
      new TextEncoder().encode(JSON.stringify(args)).length > 1024 * 1024 - 200
    )
      return { outcome: "payload_too_large", problem: null };
    return { outcome: "failure", problem: `${e.constructor.name}: ${e.message}` };
  }
}
