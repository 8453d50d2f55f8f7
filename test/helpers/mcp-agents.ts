import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type ClientKind = "v1 SDK" | "v2 SDK" | "bare POST";
export const CLIENT_KINDS: ClientKind[] = ["v1 SDK", "v2 SDK", "bare POST"];

export interface ToolAnswer {
  isError?: boolean;
  structuredContent: Record<string, any>;
  content: { type: string; text: string }[];
}

/** An MCP client of one kind that counts its tool calls and the ones that failed. */
export interface Agent {
  kind: ClientKind;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  listTools(): Promise<{ name: string; outputSchema?: object; inputSchema: object }[]>;
  calls: number;
  failed: string[];
  close(): Promise<void>;
}

/** Connects an agent that knows only the endpoint URL and a key. */
export async function connectAgent(kind: ClientKind, base: string, key: string): Promise<Agent> {
  const url = new URL(`${base}/api/mcp`);
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  let call: Agent["call"];
  let listTools: Agent["listTools"];
  let close = async () => {};
  if (kind === "v2 SDK") {
    const client = new Client(
      { name: "agent-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
    call = async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolAnswer;
    listTools = async () => (await client.listTools()).tools as never;
    close = () => client.close();
  } else if (kind === "v1 SDK") {
    const client = new V1Client({ name: "agent-v1", version: "1.0.0" });
    await client.connect(new V1Transport(url, { requestInit }));
    // v1 checks every structuredContent against the tool's outputSchema, errors included
    call = async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolAnswer;
    listTools = async () => (await client.listTools()).tools as never;
    close = () => client.close();
  } else {
    let id = 0;
    const rpc = async (method: string, params: object) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      });
      const body = (await res.json()) as {
        result?: any;
        error?: { code: number; message: string };
      };
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
      return body.result;
    };
    call = async (name, args = {}) => rpc("tools/call", { name, arguments: args });
    listTools = async () => (await rpc("tools/list", {})).tools;
  }
  const agent: Agent = {
    kind,
    calls: 0,
    failed: [],
    listTools,
    close,
    call: async (name, args) => {
      agent.calls++;
      try {
        const answer = await call(name, args);
        if (answer.isError) agent.failed.push(`${name}: ${answer.structuredContent?.error}`);
        return answer;
      } catch (error) {
        agent.failed.push(`${name}: ${(error as Error).message}`);
        throw error;
      }
    },
  };
  return agent;
}
