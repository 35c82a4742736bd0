import { gunzipSync } from 'node:zlib';
import { resolveConfig } from '../../lib';
import { compressResponse, REQUEST_COMPRESSION_MODE } from '../../lib/compression/compress-response';
import { compressionSettings } from '../../lib/compression/compression-settings';
import { RequestContext } from '../../lib/context/request-context';
import { ResponseContext } from '../../lib/context/response-context';

const settings = compressionSettings(resolveConfig({ overrides: { 'framework.http.enable-compression': true } }));

function contextOf(status: number, headers: Record<string, string>, mode?: string): RequestContext {
  const ctx = new RequestContext(new Request('http://x/', { headers: { 'Accept-Encoding': 'gzip' } }));
  ctx.response = new ResponseContext(status);
  for (const [name, value] of Object.entries(headers)) ctx.response.headers.set(name, value);
  if (mode) ctx.set(REQUEST_COMPRESSION_MODE, mode);
  return ctx;
}

describe('compressResponse (unit)', () => {
  it('never compresses without a Content-Type, even for @Compressed', () => {
    expect(compressResponse(contextOf(200, {}, 'compressed'), 'body', settings)).toBe('body');
    expect(compressResponse(contextOf(200, {}), 'body', settings)).toBe('body');
  });

  it('never compresses 304 or 1xx responses', () => {
    expect(compressResponse(contextOf(304, { 'content-type': 'text/plain' }), 'body', settings)).toBe('body');
    expect(compressResponse(contextOf(103, { 'content-type': 'text/plain' }), 'body', settings)).toBe('body');
  });

  it('ignores media type parameters and case when matching the list', () => {
    const ctx = contextOf(200, { 'content-type': 'Text/HTML; charset=ISO-8859-1' });
    expect(gunzipSync(compressResponse(ctx, 'é', settings) as unknown as Uint8Array).toString()).toBe('é');
    expect(ctx.response!.headers.get('content-encoding')).toBe('gzip');
  });

  it('appends Accept-Encoding to an existing Vary, once, and drops a stale Content-Length', () => {
    const ctx = contextOf(200, { 'content-type': 'text/plain', vary: 'Accept', 'content-length': '4' });
    compressResponse(ctx, 'body', settings);
    expect(ctx.response!.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(ctx.response!.headers.has('content-length')).toBe(false);
    const star = contextOf(200, { 'content-type': 'text/plain', vary: '*' });
    compressResponse(star, 'body', settings);
    expect(star.response!.headers.get('vary')).toBe('*');
  });

  it('compresses a whole Web Response written by a writer under the same rules', async () => {
    const ctx = contextOf(200, {});
    const written = new Response('<h1>page</h1>', { headers: { 'content-type': 'text/html', 'content-length': '13' } });
    const result = compressResponse(ctx, written, settings) as Response;
    expect(result.headers.get('content-encoding')).toBe('gzip');
    expect(result.headers.get('content-length')).toBeNull();
    expect(result.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await result.arrayBuffer())).toString()).toBe('<h1>page</h1>');
    const image = new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/png' } });
    expect(compressResponse(ctx, image, settings)).toBe(image);
  });
});
