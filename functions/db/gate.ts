import { outageKind, unavailableError } from "./outage.ts";

export interface GateOptions {
  /** The longest a statement waits for the database to come back, in ms. */
  waitMs: number;
  /** Between two probes while the database is down, in ms. */
  probeEveryMs: number;
  /** One cheap statement that resolves only when the database answers (with its own deadline). */
  probe: () => Promise<unknown>;
  /**
   * Told once when the database goes away and once when it is back. "Back" is told only once the
   * database has stayed up for `settleMs`: a stopping Postgres drops its pooled connections one by
   * one, so a probe can pass between two of them; that is still the same outage, told once.
   */
  onChange?: (up: boolean, error?: unknown) => void;
  /** How long the database must stay up before `onChange(true)` (default 1000 ms). */
  settleMs?: number;
}

export interface Gate {
  /**
   * Runs one statement. While the database is down it waits (at most `waitMs`) for it to come
   * back instead of queueing a connection attempt per statement; then it fails with 503
   * `unavailable`. `resend`: the statement may be sent again after a lost connection (a read).
   * `answerBy` (epoch ms): the request must be answered by then, so neither the wait nor an
   * attempt goes past it; `attempt` is told the milliseconds it has left.
   */
  run<T>(attempt: (msLeft: number) => Promise<T>, resend: boolean, answerBy?: number): Promise<T>;
  readonly up: boolean;
  close(): void;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * The circuit between the service and Postgres. The first statement to find the database gone
 * opens it; from then on one probe at a time knocks (every `probeEveryMs`), so a restarting
 * Postgres sees a handful of connection attempts a second rather than one per request, and the
 * requests that arrive meanwhile wait here, in memory, not in the driver's queue behind its
 * reconnection back-off (which grew to 20 s and held requests that long). The first successful
 * probe releases them all: the pool is working again within one probe interval.
 */
export function databaseGate(options: GateOptions): Gate {
  let up = true;
  let closed = false;
  const waiters = new Set<() => void>();
  // set while the database is back but has not stayed up for settleMs: "back" is not told yet
  let settling: ReturnType<typeof setTimeout> | null = null;
  const settleMs = options.settleMs ?? 1000;

  async function probeUntilBack() {
    while (!up && !closed) {
      await sleep(options.probeEveryMs);
      if (closed) return;
      try {
        await options.probe();
      } catch {
        continue;
      }
      up = true;
      settling = setTimeout(() => {
        settling = null;
        options.onChange?.(true);
      }, settleMs);
      settling.unref?.();
      for (const wake of waiters) wake();
      waiters.clear();
    }
  }

  function goneDown(error: unknown) {
    if (!up || closed) return;
    up = false;
    // down again before "back" was told: the outage that was told goes on
    if (settling) {
      clearTimeout(settling);
      settling = null;
    } else options.onChange?.(false, error);
    void probeUntilBack();
  }

  function back(deadline: number): Promise<void> {
    if (up) return Promise.resolve();
    if (closed) return Promise.reject(unavailableError());
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          waiters.delete(wake);
          reject(unavailableError());
        },
        Math.max(0, deadline - Date.now()),
      );
      waiters.add(wake);
    });
  }

  return {
    get up() {
      return up;
    },
    async run<T>(
      attempt: (msLeft: number) => Promise<T>,
      resend: boolean,
      answerBy = Number.POSITIVE_INFINITY,
    ): Promise<T> {
      const deadline = Math.min(Date.now() + options.waitMs, answerBy);
      for (;;) {
        await back(deadline);
        const msLeft = answerBy - Date.now();
        if (msLeft <= 0) throw unavailableError();
        try {
          return await attempt(msLeft);
        } catch (error) {
          const kind = outageKind(error);
          if (kind === null || kind === "busy") throw error;
          goneDown(error);
          // a write whose connection died may have committed: sending it again could write twice
          if (kind === "lost" && !resend) throw error;
          if (Date.now() >= deadline) throw unavailableError(error);
        }
      }
    },
    close() {
      closed = true;
      if (settling) clearTimeout(settling);
      for (const wake of waiters) wake();
      waiters.clear();
    },
  };
}
