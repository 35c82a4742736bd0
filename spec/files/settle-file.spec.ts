import { writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { FilePart, GET, LocalFile, Path, QueryParam, localFile, type RestApp, type RunningServer } from '../../lib';
import { mediaTypeOf } from '../../lib/files/settle-file';
import { buildApp, call } from '../support/app';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('files');
const text = join(dir, 'hello.txt');
const json = join(dir, 'data.json');
const unknown = join(dir, 'blob.zzz-unknown');
writeFileSync(text, '0123456789abcdefghij');
writeFileSync(json, '{"a":1}');
writeFileSync(unknown, 'xyz');

@Path('files')
class FileResource {
  @GET @Path('text') text(): LocalFile {
    return localFile(text);
  }

  @GET @Path('typed') typed(): LocalFile {
    return localFile(text, 'text/markdown');
  }

  @GET @Path('json') json(): LocalFile {
    return localFile(json);
  }

  @GET @Path('unknown') unknown(): LocalFile {
    return localFile(unknown);
  }

  @GET @Path('part') part(@QueryParam('offset') offset: number, @QueryParam('length') length: number): FilePart {
    return new FilePart(text, offset, length);
  }

  @GET @Path('handle') async handle(): Promise<FileHandle> {
    return open(text);
  }

  @GET @Path('missing') missing(): LocalFile {
    return localFile(join(dir, 'missing.txt'));
  }
}

const app: RestApp = buildApp([FileResource]);
const get = (path: string, headers: Record<string, string> = {}) => call(app, path, { headers });

describe('localFile results', () => {
  it('answers 200 with Content-Type from the name, Content-Length and Accept-Ranges', async () => {
    const response = await get('/files/text');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('content-length')).toBe('20');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(await response.text()).toBe('0123456789abcdefghij');
    expect((await get('/files/json')).headers.get('content-type')).toBe('application/json');
    expect((await get('/files/unknown')).headers.get('content-type')).toBe('application/octet-stream');
    expect((await get('/files/typed')).headers.get('content-type')).toBe('text/markdown');
  });

  it('answers one satisfiable Range with 206 and Content-Range, suffix and open ranges included', async () => {
    const cases: [string, string, string][] = [
      ['bytes=0-4', 'bytes 0-4/20', '01234'],
      ['bytes=15-', 'bytes 15-19/20', 'fghij'],
      ['bytes=-3', 'bytes 17-19/20', 'hij'],
      ['bytes=18-100', 'bytes 18-19/20', 'ij'],
    ];
    for (const [range, contentRange, body] of cases) {
      const response = await get('/files/text', { range });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(contentRange);
      expect(response.headers.get('content-length')).toBe(String(body.length));
      expect(await response.text()).toBe(body);
    }
  });

  it('answers several ranges, unsatisfiable or malformed ones with 200 and the whole file', async () => {
    for (const range of ['bytes=0-1,3-4', 'bytes=20-30', 'bytes=-0', 'bytes=5-2', 'items=0-1', 'bytes=abc']) {
      const response = await get('/files/text', { range });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-range')).toBeNull();
      expect(await response.text()).toBe('0123456789abcdefghij');
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await call(app, '/files/text', { method: 'HEAD' });
    expect(response.headers.get('content-length')).toBe('20');
    expect(await response.text()).toBe('');
  });

  it('fails before committing when the file does not exist', async () => {
    const response = await get('/files/missing');
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(dir);
  });
});

describe('FilePart', () => {
  it('serves length bytes from offset with Content-Length, as 200', async () => {
    const response = await get('/files/part?offset=5&length=4');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('4');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('5678');
  });

  it('serves an empty part as an empty 200', async () => {
    const response = await get('/files/part?offset=3&length=0');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('rejects negative, fractional or out-of-file parts', () => {
    expect(() => new FilePart(text, -1, 2)).toThrow(RangeError);
    expect(() => new FilePart(text, 1.5, 2)).toThrow(RangeError);
    expect(() => new FilePart(text, 0, -2)).toThrow(RangeError);
    expect(() => new FilePart(text, 15, 6)).toThrow(/beyond the 20 bytes/);
    expect(new FilePart(text, 15, 5).length).toBe(5);
  });

  it('answers 500 (not a partial body) when the part lies beyond the file', async () => {
    expect((await get('/files/part?offset=19&length=5')).status).toBe(500);
  });
});

describe('FileHandle results', () => {
  it('streams an open handle as application/octet-stream without Content-Length', async () => {
    const response = await get('/files/handle');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe('0123456789abcdefghij');
  });
});

describe('file results over a real socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('writes the whole file, a range and a handle straight to the Node response', async () => {
    const whole = await fetch(`${server.url}/files/text`);
    expect(whole.headers.get('content-length')).toBe('20');
    expect(await whole.text()).toBe('0123456789abcdefghij');
    const part = await fetch(`${server.url}/files/text`, { headers: { range: 'bytes=2-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-3/20');
    expect(await part.text()).toBe('23');
    const handle = await fetch(`${server.url}/files/handle`);
    expect(await handle.text()).toBe('0123456789abcdefghij');
  });
});

describe('mediaTypeOf', () => {
  it('looks the type up by extension, octet-stream when unknown', () => {
    expect(mediaTypeOf('/a/b.html')).toBe('text/html');
    expect(mediaTypeOf('/a/b.PNG')).toBe('image/png');
    expect(mediaTypeOf('/a/noext')).toBe('application/octet-stream');
  });
});
