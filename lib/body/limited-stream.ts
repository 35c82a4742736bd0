/** A request body stream that fails with 413 once it has carried more than the body size limit. */
import { bodyTooLarge } from './read-body';

/** Streams `body` as it arrives (never buffered), erroring the stream past `limit` bytes. */
export function limitedStream(body: ReadableStream<Uint8Array> | null, limit: number): ReadableStream<Uint8Array> {
  if (!body) return new ReadableStream({ start: (controller) => controller.close() });
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) controller.error(bodyTooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
}
