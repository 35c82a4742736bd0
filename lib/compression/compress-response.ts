/** Decides whether a written response body is compressed, and with which coding (RFC 9110 §12.5.3). */
import type { WrittenBody } from '../body/entity-writers';
import type { CompressionMode } from '../decorators/compression';
import { negotiateEncoding } from '../http/content-coding';
import type { RequestContext } from '../pipeline/request-context';
import { compressBody, isSupportedCoding, type SupportedCoding } from './compress-body';
import type { CompressionSettings } from './compression-settings';

/** The request property holding the matched method's {@link CompressionMode}; absent means "by media type". */
export const COMPRESSION_MODE_PROPERTY = 'rxrest.compression-mode';

const LEGACY_CODINGS = ['gzip'];

/** The response fields the decision reads and the headers it changes. */
interface HeaderView {
  get(name: string): string | null | undefined;
  has(name: string): boolean;
  set(name: string, value: string): unknown;
  delete(name: string): unknown;
}

function baseType(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

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
  if (vary === undefined || vary === null || vary === '') headers.set('vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
}

/** The coding to apply, with `Content-Encoding`, `Vary` and `Content-Length` already adjusted; undefined to leave the body. */
function chooseCoding(
  ctx: RequestContext,
  status: number,
  headers: HeaderView,
  settings: CompressionSettings,
): SupportedCoding | undefined {
  if (status === 204 || status === 304 || status < 200 || headers.has('content-encoding')) return undefined;
  const offered = offeredCodings(
    ctx.getProperty<CompressionMode>(COMPRESSION_MODE_PROPERTY),
    headers.get('content-type'),
    settings,
  );
  if (offered === undefined) return undefined;
  addVary(headers);
  const coding = negotiateEncoding(ctx.headers.get('accept-encoding'), offered);
  if (coding === undefined || !isSupportedCoding(coding)) return undefined;
  headers.set('content-encoding', coding);
  headers.delete('content-length');
  return coding;
}

/** A whole Web `Response` written by a writer (a static file, say), compressed under the same rules. */
function compressWebResponse(ctx: RequestContext, written: Response, settings: CompressionSettings): Response {
  if (written.body === null) return written;
  const headers = new Headers(written.headers);
  const coding = chooseCoding(ctx, written.status, headers, settings);
  if (coding === undefined)
    return headers.get('vary') === written.headers.get('vary')
      ? written
      : new Response(written.body, { status: written.status, statusText: written.statusText, headers });
  return new Response(compressBody(written.body, coding, settings.level), {
    status: written.status,
    statusText: written.statusText,
    headers,
  });
}

/**
 * Compresses `body` when the settings, the method's mode, the Content-Type and the client's
 * `Accept-Encoding` allow it: sets `Content-Encoding`, drops `Content-Length` and adds
 * `Vary: Accept-Encoding` to every response that could have been compressed. Bodies that already
 * have a `Content-Encoding`, and 204/304/1xx responses, stay as they are; there is no minimum size.
 *
 * @example compressResponse(ctx, 'Some resource', settings) // gzip bytes when the client sent `Accept-Encoding: gzip`
 */
export function compressResponse<B extends WrittenBody | Response>(
  ctx: RequestContext,
  body: B,
  settings: CompressionSettings,
): B {
  if (body === null) return body;
  if (body instanceof Response) return compressWebResponse(ctx, body, settings) as B;
  const response = ctx.response!;
  const coding = chooseCoding(ctx, response.status, response.headers, settings);
  return coding === undefined ? body : (compressBody(body as Exclude<B, Response | null>, coding, settings.level) as B);
}
