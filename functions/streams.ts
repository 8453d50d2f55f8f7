/**
 * `body` cut off past `limit` bytes: the stream errors there and the source is cancelled, so
 * whatever reads it (a JSON body, a multipart parser) never holds more than the limit. `over`
 * is told, because such readers report an error of their own rather than this one.
 */
export function capped(
  body: ReadableStream<Uint8Array>,
  limit: number,
  over: () => void,
): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) {
          over();
          controller.error(new Error(`body over ${limit} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** An iteration under way: its first item read already; `close` ends the source. */
export interface Started<T> extends AsyncIterable<T> {
  close(): Promise<void>;
}

/**
 * `source` with its first item read already, so a statement that fails at once fails the request
 * (its `{error, code}` answer) rather than a download already under way (issue 41). Whoever
 * takes it calls `close` when done, read or not: the source may hold a database connection.
 */
export async function started<T>(source: AsyncIterable<T>): Promise<Started<T>> {
  const it = source[Symbol.asyncIterator]();
  let first: IteratorResult<T> | null = await it.next();
  const close = async () => {
    first = null;
    await it.return?.();
  };
  const next = (): Promise<IteratorResult<T>> => {
    const pending = first;
    first = null;
    return pending ? Promise.resolve(pending) : it.next();
  };
  const done = async (): Promise<IteratorResult<T>> => {
    await close();
    return { done: true, value: undefined };
  };
  return { [Symbol.asyncIterator]: () => ({ next, return: done }), close };
}
