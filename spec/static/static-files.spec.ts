import { writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { GET, Path, RestApplication, resolveConfig } from '../../lib';
import { tempDir } from '../support/temp-dir';

const root = tempDir('static');
mkdirSync(join(root, 'public'));
writeFileSync(join(root, 'secret.txt'), 'secret');
writeFileSync(join(root, 'public', 'index.html'), '<h1>hi</h1>');
writeFileSync(join(root, 'public', 'data.txt'), '0123456789abcdef');
writeFileSync(join(root, 'public', 'taken.txt'), 'file');
// Symbolic links: an index.html pointing outside, a file pointing outside, and one staying inside.
mkdirSync(join(root, 'outside'));
writeFileSync(join(root, 'outside', 'index.html'), '<h1>outside</h1>');
mkdirSync(join(root, 'public', 'linked'));
symlinkSync(join(root, 'outside', 'index.html'), join(root, 'public', 'linked', 'index.html'));
symlinkSync(join(root, 'secret.txt'), join(root, 'public', 'escape.txt'));
symlinkSync(join(root, 'outside'), join(root, 'public', 'outside-dir'));
symlinkSync(join(root, 'public', 'data.txt'), join(root, 'public', 'alias.txt'));

@Path('taken.txt')
class TakenResource {
  @GET get(): string {
    return 'resource';
  }
}

const app = RestApplication.build({
  classes: [TakenResource],
  directory: root,
  config: resolveConfig({ overrides: { 'framework.http.static.directory': join(root, 'public') } }),
});
const get = (path: string, headers: Record<string, string> = {}) =>
  app.fetch(new Request(`http://localhost${path}`, { headers }));

describe('StaticFiles', () => {
  it('serves files with type, validators and index.html for directories', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(await index.text()).toBe('<h1>hi</h1>');
    const etag = index.headers.get('etag')!;
    expect(index.headers.get('last-modified')).toBeTruthy();
    expect((await get('/index.html', { 'if-none-match': etag })).status).toBe(304);
  });

  it('answers a single range with 206 and several with 200', async () => {
    const part = await get('/data.txt', { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-9/16');
    expect(await part.text()).toBe('0123456789');
    const multi = await get('/data.txt', { range: 'bytes=0-1, 3-4' });
    expect(multi.status).toBe(200);
    expect(await multi.text()).toBe('0123456789abcdef');
  });

  it('answers a range past the end of the file with the whole file', async () => {
    const beyond = await get('/data.txt', { range: 'bytes=100-200' });
    expect(beyond.status).toBe(200);
    expect(beyond.headers.get('content-range')).toBeNull();
    expect(await beyond.text()).toBe('0123456789abcdef');
  });

  it('never serves outside the directory, whatever the encoding', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2E%2E%5Csecret.txt',
      '/a/%252e%252e/secret.txt',
    ]) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it('refuses an index.html that is a symbolic link to a file outside the directory', async () => {
    for (const path of ['/linked/', '/linked', '/linked/index.html']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('outside');
    }
  });

  it('refuses symbolic links to files or directories outside, and follows those that stay inside', async () => {
    expect((await get('/escape.txt')).status).toBe(404);
    expect((await get('/outside-dir/index.html')).status).toBe(404);
    const alias = await get('/alias.txt');
    expect(alias.status).toBe(200);
    expect(await alias.text()).toBe('0123456789abcdef');
  });

  it('answers HEAD with the headers only, and another method 405 (spec/static/static-methods)', async () => {
    const head = await app.fetch(new Request('http://localhost/data.txt', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('16');
    expect(head.headers.get('content-type')).toContain('text/plain');
    expect(await head.text()).toBe('');
    expect((await app.fetch(new Request('http://localhost/data.txt', { method: 'POST' }))).status).toBe(405);
  });

  it('answers 404 for a file that does not exist', async () => {
    expect((await get('/missing.txt')).status).toBe(404);
  });

  it('answers 404 for a file named with a trailing slash, as serve-static and nginx do', async () => {
    expect((await get('/index.html/')).status).toBe(404);
    expect((await get('/data.txt/')).status).toBe(404);
    expect((await get('/data.txt//')).status).toBe(404);
    expect(await (await get('/')).text()).toBe('<h1>hi</h1>');
    expect((await get('/data.txt')).status).toBe(200);
  });

  it('lets resource endpoints take precedence', async () => {
    expect(await (await get('/taken.txt')).text()).toBe('resource');
  });
});
