/** The last stage: the entity written by the first fitting writer, sent as a Web `Response` or onto Node's response. */
import type { ServerResponse } from 'node:http';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Http2ServerResponse } from 'node:http2';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { defaultMediaType, withCharset, type EntityWriter, type WrittenBody } from '../body/entity-writers';
import { compressDirectBody, compressResponse } from '../compression/compress-response';
import type { CompressionSettings } from '../compression/compression-settings';
import { DirectBody } from '../streaming/direct-body';
import { setBodyHeaders, writeDirectBody, writeDirectBodyTo } from '../streaming/write-direct-body';
import type { RequestContext } from '../context/request-context';
import type { ResponseMaker } from '../runtime/web-response';
import { utf8Length } from '../runtime/bytes';
import { varyWith } from '../http/vary';
import { headerLinesOf } from './to-response';

const nodeHttp = () => nodeBuiltin('node:http', 'the Node listener');
const nodeStream = () => nodeBuiltin('node:stream', 'the Node listener');

/** A body for the response context's head, a whole `Response` a server writer made, or a body that writes itself. */
export type OutgoingBody = Exclude<WrittenBody, Response> | Response | DirectBody;

/** Statuses that never carry a body (RFC 9110 §15.3.5, §15.4.5). */
function isBodiless(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** The written body, compressed when it should be, and emptied (its length kept) for HEAD. */
function finish(ctx: RequestContext, written: WrittenBody, compression?: CompressionSettings): OutgoingBody {
  const response = ctx.response!;
  if (written instanceof Response) return written;
  let body: Exclude<WrittenBody, Response> = written;
  if (compression) body = compressResponse(ctx, body, compression) as Exclude<WrittenBody, Response>;
  if (ctx.method === 'HEAD' && body !== null) {
    if (typeof body === 'string') response.headers.set('content-length', utf8Length(body));
    else if (body instanceof Uint8Array) response.headers.set('content-length', body.byteLength);
    else void body.cancel().catch(() => undefined);
    body = null;
  } else if (body === null && !isBodiless(response.status) && !response.headers.has('content-length')) {
    // An empty answer such as a 303 says so, rather than going out as an empty chunked body (RFC 9110 §8.6).
    response.headers.set('content-length', 0);
  }
  return body;
}

/**
 * Writes the entity with the first writer taking its media type (the response's, the negotiated one, or a default;
 * user writers first), none throwing (500); a `DirectBody` writes itself unless compression needs a Web stream.
 */
export function writeBody(
  ctx: RequestContext,
  writers: readonly EntityWriter[],
  compression?: CompressionSettings,
): OutgoingBody | Promise<OutgoingBody> {
  const response = ctx.response!;
  const entity = response.entity;
  if (variesByAccept(ctx, response.status))
    response.headers.set('vary', varyWith(response.headers.get('vary'), 'Accept'));
  if (entity instanceof DirectBody) {
    if (isBodiless(response.status)) return (entity.cancel(), finish(ctx, null, compression));
    if (!compression) return entity;
    const body = compressDirectBody(ctx, entity, compression);
    return body instanceof DirectBody ? body : finish(ctx, body);
  }
  if (isBodiless(response.status) || entity === undefined || entity === null) return finish(ctx, null, compression);
  const mediaType = response.mediaType ?? ctx.negotiated ?? defaultMediaType(entity);
  const writer = writers.find((candidate) => candidate.isWriteable(entity, mediaType));
  if (!writer) throw new Error(noWriterMessage(ctx, entity, mediaType));
  if (response.headers.size === 0 || !response.headers.has('content-type'))
    response.headers.set('content-type', withCharset(mediaType));
  const body = writer.write(entity, mediaType, response);
  return body instanceof Promise
    ? body.then((written) => finish(ctx, written, compression))
    : finish(ctx, body, compression);
}

/** `Vary: Accept` (RFC 9110 §12.5.5) on every answer of an endpoint choosing its type by `Accept`, and every 406. */
function variesByAccept(ctx: RequestContext, status: number): boolean {
  if (status === 406) return true;
  const produces = ctx.endpoint?.produces;
  return produces !== undefined && (produces.length > 1 || (produces.length === 1 && produces[0]!.includes('*')));
}

/** Why an entity could not be written, for the log. */
function noWriterMessage(ctx: RequestContext, entity: unknown, mediaType: string): string {
  const type = typeof entity === 'object' ? (entity!.constructor?.name ?? 'Object') : typeof entity;
  const endpoint = ctx.endpoint ? ` from ${ctx.endpoint.resourceClass.name}#${ctx.endpoint.methodName}` : '';
  return (
    `No entity writer for a ${type} as ${mediaType}${endpoint}: register a MessageBodyWriter for it, ` +
    `or answer a media type a built-in writer takes (JSON, text, bytes)`
  );
}

/** The body as a Web `Response`, a text or byte body made by the application's `makeResponse`. */
export function toWebResponse(ctx: RequestContext, body: OutgoingBody, makeResponse: ResponseMaker): Response {
  if (body instanceof Response) return body;
  if (body instanceof DirectBody) return writeDirectBody(ctx, body);
  const response = ctx.response!;
  return makeResponse(body, response.status, response.headers);
}

/** Sends the body on Node's response: a text or byte body with its head in one socket write (`writeHead` and `end`). */
export function sendOnNode(
  ctx: RequestContext,
  body: OutgoingBody,
  outgoing: ServerResponse | Http2ServerResponse,
): void {
  if (body instanceof Response) return sendWebResponse(body, outgoing);
  if (body instanceof DirectBody) {
    if (outgoing instanceof nodeHttp().ServerResponse) return writeDirectBodyTo(ctx, body, outgoing);
    // An HTTP/2 stream takes a stream or file as a Web stream (its flow control is the stream's own).
    setBodyHeaders(ctx.response!, body);
    if (ctx.method === 'HEAD') body.cancel();
    return sendOnNode(ctx, ctx.method === 'HEAD' ? null : body.toWebStream(), outgoing);
  }
  const response = ctx.response!;
  const headers = response.headers.toInit();
  if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    outgoing.writeHead(response.status, headers);
    return pipeWebBody(body, outgoing);
  }
  // The length goes in the head: once it is written, Node could only send the body chunked.
  if (body !== null && headers['content-length'] === undefined)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  outgoing.writeHead(response.status, headers);
  if (body === null) outgoing.end();
  else outgoing.end(body);
}

/** Undoes what a `writeHead` that threw left on Node's response: the headers it set and the reason phrase it chose. */
export function resetUnsentHead(outgoing: ServerResponse | Http2ServerResponse): void {
  for (const name of outgoing.getHeaderNames()) outgoing.removeHeader(name);
  // Node keeps the phrase of the status it could not send (`500 Found` after a 302); empty, the next is chosen anew.
  if (outgoing instanceof nodeHttp().ServerResponse) outgoing.statusMessage = '';
}

/** A Web `Response` on Node's response: its headers (each `Set-Cookie` its own line) and body. */
function sendWebResponse(response: Response, outgoing: ServerResponse | Http2ServerResponse): void {
  const headers = headerLinesOf(response.headers).toInit();
  if (response.statusText) outgoing.writeHead(response.status, response.statusText, headers);
  else outgoing.writeHead(response.status, headers);
  if (response.body === null) outgoing.end();
  else pipeWebBody(response.body, outgoing);
}

/**
 * A Web body streamed onto Node's response with its backpressure; a failure cuts the answer short (never a silent
 * end). The head goes out at once (HTTP/2's `writeHead` sends it): an SSE client waits for it.
 */
function pipeWebBody(body: ReadableStream<Uint8Array>, outgoing: ServerResponse | Http2ServerResponse): void {
  if (outgoing instanceof nodeHttp().ServerResponse) outgoing.flushHeaders();
  const source = nodeStream().Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>);
  // With the error: an HTTP/2 stream is reset with INTERNAL_ERROR, not closed as if complete.
  source.on('error', (error) => outgoing.destroy(error));
  outgoing.once('close', () => source.destroy());
  source.pipe(outgoing as NodeJS.WritableStream);
}
