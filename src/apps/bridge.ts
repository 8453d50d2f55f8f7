// The app's side of MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`): JSON-RPC 2.0 over
// postMessage with the host. The ext-apps `App` class does the same but brings the MCP SDK and
// zod: bundled with it the form app's script is 693 KB instead of 30 KB and the report app's
// 667 KB instead of 4 KB (158 and 149 KB gzip; 2026-11-27, ext-apps 2.0.4), and it too says
// `ui/initialize` once, so a host that starts listening after its first message never answers
// it. An app that only initializes, hears the tool's input and result, calls server tools and
// reports its height needs these few lines, so each app stays one small document.

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

  /**
   * `ui/initialize`, then `ui/notifications/initialized`; the height follows the content. A
   * host may start listening only after this document loaded, its first message lost: the
   * request is said again, less and less often, until it is answered (the same message and id,
   * so one answer counts).
   */
  async connect(name: string): Promise<void> {
    const params = {
      appInfo: { name, version: "1" },
      appCapabilities: {},
      protocolVersion: PROTOCOL,
    };
    const { message, answer } = this.#request("ui/initialize", params);
    let wait = 100;
    let again: ReturnType<typeof setTimeout> | undefined;
    const say = () => {
      this.#post(message);
      again = setTimeout(say, wait);
      wait = Math.min(wait * 2, 2000);
    };
    say();
    await answer.finally(() => clearTimeout(again));
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
    const { message, answer } = this.#request("tools/call", { name, arguments: args });
    this.#post(message);
    return (await answer) as ToolResult;
  }

  /** A request and the promise of its answer (the first one with its id). */
  #request(method: string, params: Record<string, unknown>) {
    const id = this.#next++;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, (m) =>
        m.error ? reject(new Error(m.error.message)) : resolve(m.result),
      );
    });
    return { message: { jsonrpc: "2.0", id, method, params } as Message, answer };
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
