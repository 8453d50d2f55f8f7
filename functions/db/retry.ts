// Writes that record what was already done outside the database (a webhook answered 2xx, an
// email accepted by Postmark) must not be lost to one failed statement: a lost record is a
// duplicate send later (SPEC §17). They are retried with a growing pause before giving up.

/** Runs `write` until it succeeds, at most `tries` times (pauses 100 ms, 200 ms … 2 s). */
export async function retried<T>(write: () => Promise<T>, tries = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** (attempt - 1))));
    }
  }
}
