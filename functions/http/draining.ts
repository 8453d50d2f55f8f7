// Graceful stop, the part every runtime shares (SPEC §17): once stopping, a request that still
// arrives (on a kept-alive connection) is answered 503 `unavailable` with `Connection: close`
// and Retry-After, never cut; requests already in flight are counted so the entry can wait for
// them. Runtime-free: the Node server (node/graceful.ts) and the Deno entry both wrap their
// fetch handler with it.

type Fetch<E> = (req: Request, env: E) => Promise<Response> | Response;

export interface Gate<E> {
  fetch: (req: Request, env: E) => Promise<Response>;
  /** From now on new requests get 503. Resolves when none is in flight any more. */
  close(): Promise<void>;
  inFlight(): number;
  /** Milliseconds since a request last arrived or finished. */
  quietFor(): number;
}

/** The answer to a request that arrives while the instance stops. */
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

export function drainingGate<E>(inner: Fetch<E>): Gate<E> {
  let closed = false;
  let count = 0;
  let idle: (() => void) | null = null;
  let last = Date.now();
  return {
    async fetch(req, env) {
      last = Date.now();
      if (closed) return stoppingResponse();
      count++;
      try {
        return await inner(req, env);
      } finally {
        count--;
        last = Date.now();
        if (count === 0) idle?.();
      }
    },
    close() {
      closed = true;
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idle = resolve;
      });
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
