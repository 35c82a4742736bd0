/**
 * Content codings through the Web `CompressionStream` (gzip and deflate), for a runtime without `node:zlib`: a Worker
 * whose zlib is not there. It cannot flush after a chunk, so it suits whole bodies, not streams of events. Knows no
 * HTTP headers.
 */

/** The codings the Web API can apply (`deflate` is the zlib format, RFC 1950, as HTTP's `deflate` coding is). */
export type WebCoding = 'gzip' | 'deflate';

/** Whether `coding` can be applied through `CompressionStream` here. */
export function isWebCoding(coding: string): coding is WebCoding {
  return (coding === 'gzip' || coding === 'deflate') && typeof CompressionStream === 'function';
}

/** `body` encoded with `coding`, as a stream (its length is not known until it has been read). */
export function compressOnTheWeb(
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  coding: WebCoding,
): ReadableStream<Uint8Array> {
  const source =
    body instanceof ReadableStream
      ? body
      : new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(typeof body === 'string' ? new TextEncoder().encode(body) : body);
            controller.close();
          },
        });
  return source.pipeThrough(new CompressionStream(coding) as unknown as TransformStream<Uint8Array, Uint8Array>);
}
