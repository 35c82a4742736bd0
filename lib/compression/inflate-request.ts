/** Inflates `@GZIP` request bodies, bounded against decompression bombs: node:zlib, else `DecompressionStream`. */
import { maybeNodeBuiltin } from '../runtime/node-builtins';
import { gunzipOnTheWeb } from '../runtime/web-compression';
import { pulledReadable } from '../runtime/pulled-readable';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { WebApplicationException } from '../errors/web-application-exception';
import { httpProblem } from '../errors/http-problem';
import type { StageFn } from '../context/settle';

function tooLarge(limit: number): Error {
  return httpProblem(
    'RXREST_BODY_TOO_LARGE',
    `The inflated request body is larger than the limit of ${limit} bytes (framework.legacy.gzip.max-input)`,
  );
}

function malformed(cause: unknown): Error {
  return cause instanceof WebApplicationException
    ? cause
    : httpProblem('RXREST_MALFORMED_BODY', 'The request body is not valid gzip data', { cause });
}

/**
 * `source` gunzipped through node:zlib, first choice: it reads several gzip members (RFC 1952) whole, which Deno's
 * and workerd's `DecompressionStream` refuse (and Bun's and Deno's refuse zero bytes after the member).
 */
function gunzipWithZlib(
  source: ReadableStream<Uint8Array>,
  zlib: typeof import('node:zlib'),
): ReadableStream<Uint8Array> {
  const { pipeline, Readable } = maybeNodeBuiltin('node:stream')!;
  const gunzip = zlib.createGunzip();
  // Its errors reach the reader through `gunzip`.
  pipeline(Readable.fromWeb(source as NodeReadableStream<Uint8Array>), gunzip, () => undefined);
  return pulledReadable(gunzip);
}

/** `source` gunzipped as fast as it is read, failing with 413 past `limit` bytes out and 400 for data not gzip. */
export function inflateBody(source: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const zlib = maybeNodeBuiltin('node:zlib');
  const inflated = zlib && maybeNodeBuiltin('node:stream') ? gunzipWithZlib(source, zlib) : gunzipOnTheWeb(source);
  const reader = inflated.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const read = await reader.read().catch(malformed);
        if (read instanceof Error) return controller.error(read);
        if (read.done) return controller.close();
        total += read.value.byteLength;
        if (total <= limit) return controller.enqueue(read.value);
        // The rest is never inflated: the decompressor and the body behind it are cancelled.
        controller.error(tooLarge(limit));
        void reader.cancel().catch(() => undefined);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Nothing is inflated ahead of the reader's demand.
    { highWaterMark: 0 },
  );
}

/**
 * The request with its body inflated when it declares `Content-Encoding: gzip` (or `x-gzip`), else itself. The copy
 * has no Content-Encoding or Content-Length (readers count the inflated bytes), nor the signal (Deno's legacy one).
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
