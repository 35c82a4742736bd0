/** The last stage: the response context becomes a Web `Response`, its entity written by the first fitting writer. */
import { defaultMediaType, withCharset, type EntityWriter, type WrittenBody } from '../body/entity-writers';
import { compressResponse } from '../compression/compress-response';
import type { CompressionSettings } from '../compression/compression-settings';
import { DirectBody } from '../streaming/direct-body';
import { setBodyHeaders, writeDirectBody } from '../streaming/write-direct-body';
import type { RequestContext } from './request-context';

/** Statuses that never carry a body (RFC 9110 §15.3.5, §15.4.5). */
function isBodiless(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** Picks the writer for the entity and media type; the build step passes user writers first. */
export function selectWriter(writers: readonly EntityWriter[], entity: unknown, mediaType: string): EntityWriter | undefined {
  for (const writer of writers) if (writer.isWriteable(entity, mediaType)) return writer;
  return undefined;
}

function finish(ctx: RequestContext, written: WrittenBody, compression?: CompressionSettings): Response {
  const response = ctx.response!;
  // A server writer made the whole response itself.
  if (written instanceof Response) return written;
  let body: Exclude<WrittenBody, Response> = written;
  if (compression && body !== null) body = compressResponse(ctx, body, compression) as Exclude<WrittenBody, Response>;
  if (ctx.method === 'HEAD' && body !== null) {
    if (typeof body === 'string') response.headers.set('content-length', Buffer.byteLength(body));
    else if (body instanceof Uint8Array) response.headers.set('content-length', body.byteLength);
    else void body.cancel().catch(() => undefined);
    body = null;
  } else if (body === null && !isBodiless(response.status) && !response.headers.has('content-length')) {
    // An empty answer such as a 303 says so, rather than going out as an empty chunked body (RFC 9110 §8.6).
    response.headers.set('content-length', 0);
  }
  return new Response(body, { status: response.status, headers: response.headers.toInit() });
}

/**
 * Writes the response: no body for 204/304 or an absent entity; otherwise the first writer accepting the
 * entity as its media type (the response's, else the negotiated one, else a default by value).
 */
export function writeResponse(ctx: RequestContext, writers: readonly EntityWriter[], compression?: CompressionSettings): Response | Promise<Response> {
  const response = ctx.response!;
  const entity = response.entity;
  if (entity instanceof DirectBody) {
    if (isBodiless(response.status)) return (entity.cancel(), finish(ctx, null));
    // Compression needs the body as a Web stream; otherwise it goes to the Node response directly.
    if (!compression || (!compression.enabled && !compression.legacyGzip) || !ctx.headers.has('accept-encoding')) return writeDirectBody(ctx, entity);
    setBodyHeaders(response, entity);
    return finish(ctx, entity.toWebStream(), compression);
  }
  if (isBodiless(response.status) || entity === undefined || entity === null) return finish(ctx, null);
  const mediaType = response.mediaType ?? ctx.negotiated ?? defaultMediaType(entity);
  const writer = selectWriter(writers, entity, mediaType);
  if (!writer) {
    response.status = 500;
    response.headers.delete('content-type');
    response.entity = undefined;
    return finish(ctx, null);
  }
  if (response.headers.size === 0 || !response.headers.has('content-type')) response.headers.set('content-type', withCharset(mediaType));
  const body = writer.write(entity, mediaType, response);
  return body instanceof Promise ? body.then((written) => finish(ctx, written, compression)) : finish(ctx, body, compression);
}
