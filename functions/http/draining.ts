// Graceful stop, the part every runtime shares (SPEC §17). Once stopping, the listener is closed
// (by the entry), but a client may still send on a connection it kept alive. Such a request is
// served like any other, with `Connection: close`, so that the client's next request opens a
// connection to another instance: the respondent never sees the stop, not even as a 503 to
// retry (issue 24 asks for none). Only the health probe answers 503 `unavailable` at once, so
// that a load balancer takes the instance out; and once the entry closes its database, whatever
// still arrives gets the 503 with Retry-After, never a cut. Requests in flight are counted so
// the entry can wait for them. Runtime-free: the Node server and the Deno entry both wrap their
// fetch handler with it.

type Fetch<E> = (req: Request, env: E) => Promise<Response> | Response;

export interface Gate<E> {
  fetch: (req: Request, env: E) => Promise<Response>;
  /**
   * Stopping: from now on answers carry `Connection: close` and the health probe answers 503.
   * Resolves when no request is in flight.
   */
  close(): Promise<void>;
  /** The database is closing: from now on every request gets 503. */
  shut(): void;
  inFlight(): number;
  /** Milliseconds since a request last arrived or finished (once stopping, not a health probe). */
  quietFor(): number;
}

/** The answer to a request that arrives while the instance can no longer serve it. */
export function stoppingResponse(): Response {
  return Response.json(
    {
      error: "This server is restarting. Please try again in a moment.",
      code: "unavailable",
    },
    {
      status: 503,
      headers: { connection: "close", "retry-after": "1", "cache-control": "no-store" },
    },
  );
}

const isHealthProbe = (req: Request) => new URL(req.url).pathname.endsWith("/api/health");

/** The same answer with `Connection: close` (a fetched Response's headers may be immutable). */
function closing(res: Response): Response {
  try {
    res.headers.set("connection", "close");
    return res;
  } catch {
    const headers = new Headers(res.headers);
    headers.set("connection", "close");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

export function drainingGate<E>(inner: Fetch<E>): Gate<E> {
  let stopping = false;
  let shut = false;
  let count = 0;
  let idle: (() => void) | null = null;
  let last = Date.now();
  return {
    async fetch(req, env) {
      // a load balancer keeps probing an instance it took out: its probes are no traffic, or a
      // probe every second would keep the Deno entry from ever being quiet (deno/serve.ts)
      if (shut || (stopping && isHealthProbe(req))) return stoppingResponse();
      last = Date.now();
      count++;
      try {
        const res = await inner(req, env);
        return stopping ? closing(res) : res;
      } finally {
        count--;
        last = Date.now();
        if (count === 0) idle?.();
      }
    },
    close() {
      stopping = true;
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idle = resolve;
      });
    },
    shut() {
      stopping = true;
      shut = true;
    },
    inFlight: () => count,
    quietFor: () => Date.now() - last,
  };
}

/** Resolves with `task`, or after `ms` when it takes longer (false then). */
export function within(task: Promise<unknown>, ms: number): Promise<boolean> {
  // a timer of Infinity would fire at once
  if (!Number.isFinite(ms)) return task.then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    task.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
