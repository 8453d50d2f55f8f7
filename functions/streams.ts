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
