/** Inflates gzip request bodies for legacy `@GZIP` methods, bounded so a decompression bomb never fills memory. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { TransformCallback } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { WebApplicationException } from '../errors/web-application-exception';
import { httpProblem } from '../errors/http-problem';
import type { StageFn } from '../context/settle';

const nodeStream = () => nodeBuiltin('node:stream', 'compressed request bodies (Content-Encoding: gzip)');
const nodeZlib = () => nodeBuiltin('node:zlib', 'compressed request bodies (Content-Encoding: gzip)');

function tooLarge(limit: number): Error {
  return httpProblem(
    'RXREST_BODY_TOO_LARGE',
    `The inflated request body is larger than the limit of ${limit} bytes (framework.legacy.gzip.max-input)`,
  );
}

/** Counts inflated bytes and fails as soon as they pass `limit`; the rest is never inflated. */
function limiter(limit: number): import('node:stream').Transform {
  let total = 0;
  return new (nodeStream().Transform)({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      total += chunk.byteLength;
      if (total > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
}

/**
 * The gzip-decoded bytes of `source`, inflated only as fast as they are read (backpressure), failing
 * with 413 once more than `limit` bytes came out and with 400 for data that is not gzip.
 *
 * @example await new Response(inflateBody(gzipped, 1024)).text()
 */
export function inflateBody(source: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const counted = limiter(limit);
  nodeStream().pipeline(
    nodeStream().Readable.fromWeb(source as NodeReadableStream<Uint8Array>),
    nodeZlib().createGunzip(),
    counted,
    () => undefined,
  );
  const reader = (nodeStream().Readable.toWeb(counted) as unknown as ReadableStream<Uint8Array>).getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(
            error instanceof WebApplicationException
              ? error
              : httpProblem('RXREST_MALFORMED_BODY', 'The request body is not valid gzip data', { cause: error }),
          );
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Nothing is inflated ahead of the reader's demand.
    { highWaterMark: 0 },
  );
}

/**
 * The request with its body inflated when it declares `Content-Encoding: gzip` (or `x-gzip`), else the
 * request itself. The copy has no Content-Encoding and no Content-Length, so body readers count the
 * inflated bytes against their own limit too.
 *
 * @example const inflated = inflateRequest(request, parseSize('10M'));
 */
export function inflateRequest(request: Request, limit: number): Request {
  const coding = request.headers.get('content-encoding')?.trim().toLowerCase();
  if (request.body === null || (coding !== 'gzip' && coding !== 'x-gzip')) return request;
  const headers = new Headers(request.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Request(request.url, {
    method: request.method,
    headers,
    body: inflateBody(request.body, limit),
    duplex: 'half',
    signal: request.signal,
  });
}

/** The `read` step of a `@GZIP` method: a gzip request body replaced by its bounded inflation. */
export function inflateStep(limit: number): StageFn {
  return (ctx) => {
    const inflated = inflateRequest(ctx.request, limit);
    if (inflated !== ctx.request) ctx.replaceRequest(inflated);
    return ctx;
  };
}
