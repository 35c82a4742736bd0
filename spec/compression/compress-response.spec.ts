import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { Compressed, GET, Path, Produces, RestResponse, Uncompressed, GZIP } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('c')
class Compressible {
  @GET @Path('text') text() {
    return 'Some resource';
  }
  @GET @Path('json') @Produces('application/json') json() {
    return { a: 1 };
  }
  @GET @Path('html') @Produces('text/html') html() {
    return '<p>hi</p>';
  }
  @GET @Path('foo') @Compressed @Produces('foo/bar') foo() {
    return 'foo bar';
  }
  @GET @Path('never') @Uncompressed @Produces('text/plain') never() {
    return 'plain';
  }
  @GET @Path('empty') empty() {
    return undefined;
  }
  @GET @Path('untyped') @Compressed untyped() {
    return RestResponse.ok(new Uint8Array([1, 2, 3]));
  }
  @GET @Path('legacy') @GZIP @Produces('application/json') legacy() {
    return { legacy: true };
  }
  @GET @Path('tagged') tagged() {
    return RestResponse.ResponseBuilder.ok('tagged text', 'text/plain').header('etag', 'no quotes').build();
  }
  @GET @Path('encoded') encoded() {
    return RestResponse.ResponseBuilder.ok('x', 'text/plain').encoding('identity').build();
  }
}

const enabled = { 'framework.http.enable-compression': true };

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe('compressResponse', () => {
  it('compresses nothing by default (enable-compression is false)', async () => {
    const response = await call(buildApp([Compressible]), '/c/text', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
    expect(await response.text()).toBe('Some resource');
  });

  it('gzips a listed media type for a client accepting gzip, however small, with Vary: Accept-Encoding', async () => {
    const response = await call(buildApp([Compressible], enabled), '/c/text', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(gunzipSync(await bytes(response)).toString()).toBe('Some resource');
  });

  it('leaves JSON alone: it is not in the default list', async () => {
    const response = await call(buildApp([Compressible], enabled), '/c/json', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('follows framework.http.compress-media-types when set', async () => {
    const app = buildApp([Compressible], { ...enabled, 'framework.http.compress-media-types': 'application/json' });
    expect(
      (await call(app, '/c/json', { headers: { 'Accept-Encoding': 'gzip' } })).headers.get('content-encoding'),
    ).toBe('gzip');
    expect(
      (await call(app, '/c/html', { headers: { 'Accept-Encoding': 'gzip' } })).headers.get('content-encoding'),
    ).toBeNull();
  });

  it('picks the coding by q-value among br, gzip and deflate', async () => {
    const app = buildApp([Compressible], enabled);
    const br = await call(app, '/c/html', { headers: { 'Accept-Encoding': 'gzip;q=0.5, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await bytes(br)).toString()).toBe('<p>hi</p>');
    const deflate = await call(app, '/c/html', { headers: { 'Accept-Encoding': 'deflate, gzip;q=0.9' } });
    expect(deflate.headers.get('content-encoding')).toBe('deflate');
    expect(inflateSync(await bytes(deflate)).toString()).toBe('<p>hi</p>');
    const preferred = await call(app, '/c/html', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(preferred.headers.get('content-encoding')).toBe('br');
  });

  it('respects identity preferences and refusals', async () => {
    const app = buildApp([Compressible], enabled);
    const identity = await call(app, '/c/text', { headers: { 'Accept-Encoding': 'identity, gzip;q=0.5' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.headers.get('vary')).toBe('Accept-Encoding');
    const noIdentity = await call(app, '/c/text', { headers: { 'Accept-Encoding': 'identity;q=0, gzip' } });
    expect(noIdentity.headers.get('content-encoding')).toBe('gzip');
    const refused = await call(app, '/c/text', { headers: { 'Accept-Encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe('Some resource');
  });

  it('does not compress for a client without Accept-Encoding', async () => {
    const response = await call(buildApp([Compressible], enabled), '/c/text');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe('Some resource');
  });

  it('compresses any media type with @Compressed and never with @Uncompressed', async () => {
    const app = buildApp([Compressible], enabled);
    const foo = await call(app, '/c/foo', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(foo.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(foo)).toString()).toBe('foo bar');
    const never = await call(app, '/c/never', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(never.headers.get('content-encoding')).toBeNull();
    expect(never.headers.get('vary')).toBeNull();
  });

  it('never compresses 204 responses, nor a body that already has a Content-Encoding', async () => {
    const app = buildApp([Compressible], enabled);
    const empty = await call(app, '/c/empty', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(empty.status).toBe(204);
    expect(empty.headers.get('content-encoding')).toBeNull();
    const encoded = await call(app, '/c/encoded', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(encoded.headers.get('content-encoding')).toBe('identity');
    expect(await encoded.text()).toBe('x');
  });

  it('drops an ETag that is no entity tag rather than give both encodings the same', async () => {
    const app = buildApp([Compressible], enabled);
    const plain = await call(app, '/c/tagged');
    expect([plain.headers.get('content-encoding'), plain.headers.get('etag')]).toEqual([null, 'no quotes']);
    const gzipped = await call(app, '/c/tagged', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([gzipped.headers.get('content-encoding'), gzipped.headers.get('etag')]).toEqual(['gzip', null]);
    expect(gunzipSync(await bytes(gzipped)).toString()).toBe('tagged text');
  });

  it('answers HEAD with the same Content-Encoding and no body', async () => {
    const response = await call(buildApp([Compressible], enabled), '/c/text', {
      method: 'HEAD',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe('');
  });

  it('leaves @GZIP methods to the legacy switch: enable-compression has no effect on them', async () => {
    const modern = await call(buildApp([Compressible], enabled), '/c/legacy', {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(modern.headers.get('content-encoding')).toBeNull();
    const legacy = await call(buildApp([Compressible], { 'framework.legacy.gzip.enabled': true }), '/c/legacy', {
      headers: { 'Accept-Encoding': 'br, gzip;q=0.1' },
    });
    expect(legacy.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(await bytes(legacy)).toString())).toEqual({ legacy: true });
  });
});
