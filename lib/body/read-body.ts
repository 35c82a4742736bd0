/** Reads a request body as bytes, text or a stream, enforcing the body size limit before and while reading. */
import type { IncomingMessage } from 'node:http';
import { httpProblem } from '../errors/http-problem';
import { nodeRequestOf, webBodyOf } from './body-source';
import type { RequestContext } from '../context/request-context';
import { WebApplicationException } from '../errors/web-application-exception';
import { readAtMost } from '../runtime/read-at-most';

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder('utf-8');

/** The 413 of a body past `limit`, whichever way it is read. */
export function bodyTooLarge(limit: number): Error {
  return httpProblem('RXREST_BODY_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes`);
}

/**
 * The whole body (a declared length the caller checked), 413 as soon as a chunked body passes `limit`. With a known
 * length `arrayBuffer()` reads the socket directly: `request.body` would make `@hono/node-server` build a Web stream.
 */
async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  if (request.headers.has('content-length')) return new Uint8Array(await request.arrayBuffer());
  if (request.body === null) return EMPTY;
  return readAtMost(request.body, limit, () => bodyTooLarge(limit));
}

/** Whether the request of `ctx` has no body at all (neither a length nor chunks), as opposed to an empty one. */
export function bodyAbsent(ctx: RequestContext): boolean {
  if (ctx.node !== undefined && ctx.isOriginalRequest)
    return ctx.headerValue('content-length') === null && ctx.headerValue('transfer-encoding') === null;
  return ctx.request.body === null;
}

/** The request body as bytes: from Node's request when nothing else has read it, else from the Web request. */
export function readRequestBytes(ctx: RequestContext, limit: number): Promise<Uint8Array> {
  const declared = ctx.headerValue('content-length');
  if (declared !== null && Number(declared) > limit) return Promise.reject(bodyTooLarge(limit));
  if (
    declared === '0' ||
    (declared === null && ctx.headerValue('transfer-encoding') === null && ctx.node !== undefined)
  )
    return Promise.resolve(EMPTY);
  const incoming = nodeRequestOf(ctx) as IncomingMessage | undefined;
  if (incoming) return readIncoming(incoming, limit);
  const request = ctx.request;
  // Read whole (Deno serves `arrayBuffer()` from a body it holds), not through `webBodyOf`, but a failed read of the
  // runtime's own body marks the request the same way; rxrest's own refusals (a 413) stay.
  const runtimeBody = ctx.isOriginalRequest && !request.bodyUsed;
  const reading = readBodyBytes(request, limit);
  if (!runtimeBody) return reading;
  return reading.catch((error: unknown) => {
    if (!(error instanceof WebApplicationException)) ctx.bodyLost();
    throw error;
  });
}

/** {@link readRequestBytes} as UTF-8 text (a byte order mark dropped, as `Request.text()` does). */
export async function readRequestText(ctx: RequestContext, limit: number): Promise<string> {
  const bytes = await readRequestBytes(ctx, limit);
  return bytes.length === 0 ? '' : decoder.decode(bytes);
}

/** Every chunk of Node's request, failing with 413 as soon as they pass `limit` (the rest is then left unread). */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (settle: () => void) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) done(() => reject(bodyTooLarge(limit)));
      else chunks.push(chunk);
    };
    const onEnd = () => done(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)));
    const onError = (error: Error) => done(() => reject(error));
    const onClose = () =>
      incoming.complete
        ? onEnd()
        : done(() => reject(new Error('The client closed the connection before the request body ended')));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

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

/** The body of the request of `ctx` as a stream, bounded by `limit` (the runtime's own watched: `webBodyOf`). */
export function requestBodyStream(ctx: RequestContext, limit: number): ReadableStream<Uint8Array> {
  return limitedStream(webBodyOf(ctx), limit);
}
