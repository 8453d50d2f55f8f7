// The app's side of MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`): JSON-RPC 2.0 over
// postMessage with the host. The ext-apps `App` class does the same in 650 KB (it brings the MCP
// SDK and zod); an app that only initializes, hears the tool's input and result, calls server
// tools and reports its height needs these few lines, so each app stays one small document.

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Handlers {
  /** The arguments the tool was called with (`ui/notifications/tool-input`). */
  input?(args: Record<string, unknown>): void;
  /** The tool's result (`ui/notifications/tool-result`). */
  result?(result: ToolResult): void;
}

/** The protocol revision of @modelcontextprotocol/ext-apps 2.x (its LATEST_PROTOCOL_VERSION). */
const PROTOCOL = "2026-01-26";

type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
};

export class HostBridge {
  #next = 1;
  #pending = new Map<number | string, (m: Message) => void>();
  #handlers: Handlers;

  constructor(handlers: Handlers) {
    this.#handlers = handlers;
    addEventListener("message", (event) => {
      if (event.source !== parent) return;
      const m = event.data as Message;
      if (m?.jsonrpc === "2.0") this.#receive(m);
    });
  }

  /** `ui/initialize`, then `ui/notifications/initialized`; the height follows the content. */
  async connect(name: string): Promise<void> {
    await this.request("ui/initialize", {
      appInfo: { name, version: "1" },
      appCapabilities: {},
      protocolVersion: PROTOCOL,
    });
    this.#post({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
    new ResizeObserver(() =>
      this.#post({
        jsonrpc: "2.0",
        method: "ui/notifications/size-changed",
        params: { height: Math.ceil(document.documentElement.scrollHeight) },
      }),
    ).observe(document.documentElement);
  }

  /** A tool of this app's server, through the host (`tools/call`). */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request("tools/call", { name, arguments: args })) as ToolResult;
  }

  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (m) =>
        m.error ? reject(new Error(m.error.message)) : resolve(m.result),
      );
      this.#post({ jsonrpc: "2.0", id, method, params });
    });
  }

  #post(message: Message) {
    parent.postMessage(message, "*");
  }

  #receive(m: Message) {
    if (m.method === undefined && m.id !== undefined) {
      this.#pending.get(m.id)?.(m);
      this.#pending.delete(m.id);
      return;
    }
    if (m.method === "ui/notifications/tool-input")
      this.#handlers.input?.((m.params?.arguments ?? {}) as Record<string, unknown>);
    else if (m.method === "ui/notifications/tool-result")
      this.#handlers.result?.((m.params ?? {}) as ToolResult);
    // a request the host expects an answer to (ping, ui/resource-teardown): nothing to do here
    else if (m.id !== undefined) this.#post({ jsonrpc: "2.0", id: m.id, result: {} });
  }
}

/** The JSON a tool answered: its structured content, else its first text block parsed. */
export function answerOf(result: ToolResult): Record<string, unknown> {
  if (result.structuredContent) return result.structuredContent;
  try {
    return JSON.parse(result.content?.[0]?.text ?? "{}") as Record<string, unknown>;
  } catch {
    return {};
  }
}
