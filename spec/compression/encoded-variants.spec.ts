/**
 * Compression against ranges, validators and caches, over a real socket: a 206 is never encoded, the encoded
 * variant has its own entity tag (accepted back in If-None-Match and If-Match, never in If-Range), and every answer
 * that could have been encoded — a 304 included — says `Vary: Accept-Encoding`.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  EntityTag,
  GET,
  Path,
  PUT,
  Produces,
  RestApplication,
  RestRequest,
  RestResponse,
  localFile,
  resolveConfig,
  type LocalFile,
  type RunningServer,
} from '../../lib';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';

const root = tempDir('variants');
mkdirSync(join(root, 'public'));
// 604 bytes of text that compress well, as in the report.
const TEXT = Array.from({ length: 151 }, (_, k) => String(k % 10).repeat(3) + '\n')
  .join('')
  .slice(0, 604);
writeFileSync(join(root, 'public', 'notes.txt'), TEXT);

@Path('doc')
class DocResource {
  text = 'a document that compresses, '.repeat(20);
  version = 1;

  @GET @Produces('text/plain') get(request: RestRequest): RestResponse<string> {
    const tag = new EntityTag(`v${this.version}`);
    return request.evaluatePreconditions(tag)?.build() ?? RestResponse.ResponseBuilder.ok(this.text).tag(tag).build();
  }

  @PUT @Produces('text/plain') put(request: RestRequest, text: string): RestResponse<string> {
    const early = request.evaluatePreconditions(new EntityTag(`v${this.version}`));
    if (early) return early.build();
    this.text = text;
    this.version++;
    return RestResponse.ResponseBuilder.ok('stored')
      .tag(new EntityTag(`v${this.version}`))
      .build();
  }

  @GET @Path('file') file(): LocalFile {
    return localFile(join(root, 'public', 'notes.txt'));
  }
}

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [DocResource],
    directory: root,
    config: resolveConfig({
      overrides: {
        'framework.http.static.directory': join(root, 'public'),
        'framework.http.enable-compression': true,
        'framework.http.compressors': 'gzip',
      },
    }),
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** The raw answer (bytes as sent, never decoded) over a fresh connection. */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Reply> {
  return within(
    new Promise((resolve, reject) => {
      const req = httpRequest(`http://127.0.0.1:${server.port}${path}`, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end(body);
    }),
    `the answer to ${method} ${path}`,
  );
}

const gzip = { 'accept-encoding': 'gzip' };

describe('a Range request to a compressible file', () => {
  it.each(['/notes.txt', '/doc/file'])(
    'answers %s with the identity bytes of the range, never encoded',
    async (path) => {
      const reply = await raw(path, { ...gzip, range: 'bytes=100-199' });
      expect(reply.status).toBe(206);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.headers['content-range']).toBe(`bytes 100-199/${TEXT.length}`);
      expect(reply.body.toString()).toBe(TEXT.slice(100, 200));
    },
  );

  it('encodes the whole answer, which then offers no byte ranges of the encoded bytes', async () => {
    const reply = await raw('/notes.txt', gzip);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(reply.body).toString()).toBe(TEXT);
    expect(reply.headers['accept-ranges']).toBeUndefined();
    expect((await raw('/notes.txt')).headers['accept-ranges']).toBe('bytes');
  });
});

describe('the entity tag of an encoded variant', () => {
  it('differs from the identity tag for a static file, and is accepted back in If-None-Match', async () => {
    const identity = await raw('/notes.txt');
    const encoded = await raw('/notes.txt', gzip);
    const tag = identity.headers.etag as string;
    expect(encoded.headers.etag).toBe(`${tag.slice(0, -1)}-gzip"`);
    const revalidated = await raw('/notes.txt', { ...gzip, 'if-none-match': encoded.headers.etag as string });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(encoded.headers.etag);
    expect((await raw('/notes.txt', { ...gzip, 'if-none-match': tag })).status).toBe(304);
  });

  it('is not fresh for a client that no longer accepts its coding', async () => {
    const encoded = await raw('/notes.txt', gzip);
    const plain = await raw('/notes.txt', { 'if-none-match': encoded.headers.etag as string });
    expect(plain.status).toBe(200);
    expect(plain.body.toString()).toBe(TEXT);
    expect(plain.headers.etag).not.toBe(encoded.headers.etag);
  });

  it('never lets If-Range splice identity bytes into an encoded copy', async () => {
    const encoded = await raw('/notes.txt', gzip);
    const resumed = await raw('/notes.txt', {
      ...gzip,
      range: 'bytes=100-',
      'if-range': encoded.headers.etag as string,
    });
    expect(resumed.status).toBe(200);
    expect(gunzipSync(resumed.body).toString()).toBe(TEXT);
    const identityTag = (await raw('/notes.txt')).headers.etag as string;
    const partial = await raw('/notes.txt', { ...gzip, range: 'bytes=100-', 'if-range': identityTag });
    expect(partial.status).toBe(206);
    expect(partial.body.toString()).toBe(TEXT.slice(100));
  });

  it('is given to a resource answer with an ETag, accepted back in If-None-Match and If-Match', async () => {
    const identity = await raw('/doc');
    const encoded = await raw('/doc', gzip);
    expect(identity.headers.etag).toBe('"v1"');
    expect(encoded.headers.etag).toBe('"v1-gzip"');
    expect(gunzipSync(encoded.body).toString()).toBe(identity.body.toString());
    const revalidated = await raw('/doc', { ...gzip, 'if-none-match': '"v1-gzip"' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe('"v1-gzip"');
    const stored = await raw('/doc', { 'if-match': '"v1-gzip"', 'content-type': 'text/plain' }, 'PUT', 'new text');
    expect(stored.status).toBe(200);
    const stale = await raw('/doc', { 'if-match': '"v1-gzip"', 'content-type': 'text/plain' }, 'PUT', 'newer');
    expect(stale.status).toBe(412);
  });
});

describe('Vary: Accept-Encoding', () => {
  it('is on a static file answer whether or not the request had an Accept-Encoding', async () => {
    expect((await raw('/notes.txt')).headers.vary).toBe('Accept-Encoding');
    expect((await raw('/notes.txt', gzip)).headers.vary).toBe('Accept-Encoding');
  });

  it('stays on the 304 of a static file and of a resource, as on their 200', async () => {
    const file = await raw('/notes.txt');
    const notModified = await raw('/notes.txt', { 'if-none-match': file.headers.etag as string });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.vary).toBe('Accept-Encoding');
    const doc = await raw('/doc');
    expect(doc.headers.vary).toBe('Accept-Encoding');
    const docNotModified = await raw('/doc', { 'if-none-match': doc.headers.etag as string });
    expect(docNotModified.status).toBe(304);
    expect(docNotModified.headers.vary).toBe('Accept-Encoding');
  });
});
