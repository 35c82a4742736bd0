/** Decides whether a written response body is compressed, and with which coding (RFC 9110 §12.5.3). */
import type { WrittenBody } from '../body/entity-writers';
import type { CompressionMode } from '../decorators/compression';
import { ContextKey } from '../context/context-key';
import { negotiateEncoding } from '../http/content-coding';
import { EntityTag, variantTag } from '../http/entity-tag';
import type { RequestContext } from '../context/request-context';
import type { DirectBody } from '../streaming/direct-body';
import { compressBody, hasZlib, isSupportedCoding, type SupportedCoding } from './compress-body';
import type { CompressionSettings } from './compression-settings';
import { baseType } from '../http/media-type';
import { varyWith } from '../http/vary';
import type { ResponseHeaders } from '../response/response-headers';

/** The matched method's {@link CompressionMode}; absent means "by media type". */
export const REQUEST_COMPRESSION_MODE = new ContextKey<CompressionMode>('compression-mode');

const LEGACY_CODINGS = ['gzip'];

/** The headers the decision reads and changes: a written `Response`'s, or rxrest's own. */
type HeaderView = Headers | ResponseHeaders;

/** The codings the response may take, or undefined when it is never compressed. */
function offeredCodings(
  mode: CompressionMode | undefined,
  contentType: string | null | undefined,
  settings: CompressionSettings,
): readonly string[] | undefined {
  // The legacy switch alone governs @GZIP methods; enable-compression has no effect on them.
  if (mode === 'gzip') return settings.legacyGzip ? LEGACY_CODINGS : undefined;
  if (!settings.enabled || mode === 'uncompressed') return undefined;
  // Never without a Content-Type, even for @Compressed.
  if (contentType === undefined || contentType === null) return undefined;
  if (mode !== 'compressed' && !settings.mediaTypes.has(baseType(contentType))) return undefined;
  return settings.codings;
}

/** Every response that could have been compressed varies by Accept-Encoding (RFC 9110 §12.5.5). */
function addVary(headers: HeaderView): void {
  const vary = headers.get('vary');
  const wanted = varyWith(vary, 'Accept-Encoding');
  // Unchanged, repeated Vary lines stay apart.
  if (wanted !== vary) headers.set('vary', wanted);
}

/**
 * The encoded body is another representation (RFC 9110 §8.8.3): its tag gets the coding's suffix, which the
 * precondition checks accept back; a tag that cannot carry one is dropped rather than shared by both variants.
 */
function tagVariant(headers: HeaderView, coding: SupportedCoding): void {
  const etag = headers.get('etag');
  if (etag === undefined || etag === null) return;
  try {
    headers.set('etag', variantTag(EntityTag.parse(etag), coding).toString());
  } catch {
    headers.delete('etag');
  }
}

/** The coding to apply, `Content-Encoding`, `Vary`, `ETag` and the lengths adjusted; undefined to leave the body. */
function chooseCoding(
  ctx: RequestContext,
  status: number,
  headers: HeaderView,
  settings: CompressionSettings,
): SupportedCoding | undefined {
  if (status === 204 || status === 304 || status < 200 || headers.has('content-encoding')) return undefined;
  const offered = offeredCodings(ctx.get(REQUEST_COMPRESSION_MODE), headers.get('content-type'), settings);
  if (offered === undefined) return undefined;
  addVary(headers);
  // A part of the identity bytes (a 206) stays identity: its Content-Range counts those bytes (RFC 9110 §14.4).
  if (headers.has('content-range')) return undefined;
  const coding = negotiateEncoding(ctx.headers.get('accept-encoding'), offered);
  if (coding === undefined || !isSupportedCoding(coding)) return undefined;
  headers.set('content-encoding', coding);
  headers.delete('content-length');
  // Ranges are served of the identity bytes only, so the encoded answer offers none.
  headers.delete('accept-ranges');
  tagVariant(headers, coding);
  return coding;
}

/** A 304 carries the `Vary` its 200 would (RFC 9110 §15.4.5), of the response's media type or the negotiated one. */
function varyNotModified(ctx: RequestContext, settings: CompressionSettings): void {
  const response = ctx.response!;
  const type = response.headers.get('content-type') ?? response.mediaType ?? ctx.negotiated;
  const mode = ctx.get(REQUEST_COMPRESSION_MODE);
  if (offeredCodings(mode, type, settings) !== undefined) addVary(response.headers);
}

/** A whole Web `Response` written by a writer (a static file, say), compressed under the same rules. */
function compressWebResponse(ctx: RequestContext, written: Response, settings: CompressionSettings): Response {
  if (written.body === null) return written;
  const headers = new Headers(written.headers);
  const coding = chooseCoding(ctx, written.status, headers, settings);
  const init = { status: written.status, statusText: written.statusText, headers };
  if (coding === undefined)
    return headers.get('vary') === written.headers.get('vary') ? written : new Response(written.body, init);
  return new Response(compressBody(written.body, coding, settings.level), init);
}

/** Compresses `body` as `chooseCoding` decides; `Vary: Accept-Encoding` on every response that could have been. */
export function compressResponse<B extends WrittenBody | Response>(
  ctx: RequestContext,
  body: B,
  settings: CompressionSettings,
): B {
  const response = ctx.response!;
  if (body === null) {
    if (response.status === 304) varyNotModified(ctx, settings);
    return body;
  }
  if (body instanceof Response) return compressWebResponse(ctx, body, settings) as B;
  const coding = chooseCoding(ctx, response.status, response.headers, settings);
  return coding === undefined ? body : (compressBody(body as Exclude<B, Response | null>, coding, settings.level) as B);
}

/** A stream or file compressed under the same rules, as a Web stream; else the body itself (its `Vary` set). */
export function compressDirectBody(
  ctx: RequestContext,
  body: DirectBody,
  settings: CompressionSettings,
): DirectBody | ReadableStream<Uint8Array> {
  const response = ctx.response!;
  // The Web CompressionStream would hold each event until enough follow: streams go out as they are without zlib.
  if (!hasZlib()) return body;
  if (!response.headers.has('content-type')) response.headers.set('content-type', body.mediaType);
  const coding = chooseCoding(ctx, response.status, response.headers, settings);
  if (coding === undefined) return body;
  return compressBody(body.toWebStream(), coding, settings.level) as ReadableStream<Uint8Array>;
}
