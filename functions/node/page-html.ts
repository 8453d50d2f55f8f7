import { EventEmitter } from "node:events";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import type { PageModel } from "../../src/lib/page-model.ts";

type AstroHandler = (req: never, res: never, next: () => void, locals: object) => Promise<void>;

/** A response that keeps what Astro writes, instead of sending it on a socket. */
class Captured extends EventEmitter {
  statusCode = 200;
  statusMessage = "";
  headersSent = false;
  #chunks: Uint8Array[] = [];
  done: Promise<string>;
  #resolve!: (html: string) => void;
  readonly req: IncomingMessage;
  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }
  writeHead(status: number) {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }
  setHeader() {
    return this;
  }
  write(chunk: Uint8Array | string) {
    this.#chunks.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
    return true;
  }
  end(chunk?: Uint8Array | string) {
    if (chunk) this.write(chunk);
    this.emit("finish");
    this.#resolve(this.statusCode === 200 ? Buffer.concat(this.#chunks).toString("utf8") : "");
    return this;
  }
}

/**
 * A form's page as the pages' own components render it (the preview route, which renders the
 * model it is handed), in this process and without a request: the MCP form app shows it (SPEC
 * §18). Null when the route does not render (no such route in the build).
 */
export async function pageHtml(render: AstroHandler, model: PageModel): Promise<string | null> {
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  req.url = "/preview/mcp-app-page";
  req.headers = { host: "localhost" };
  req.push(null);
  const res = new Captured(req);
  let missed = false;
  const next = () => {
    missed = true;
  };
  await render(req as never, res as never, next, { formdown: model });
  if (missed) return null;
  return (await res.done) || null;
}
