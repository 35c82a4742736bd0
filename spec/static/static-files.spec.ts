import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GET, Path, RestApplication, resolveConfig } from '../../lib';

const root = mkdtempSync(join(tmpdir(), 'rxrest-static-'));
mkdirSync(join(root, 'public'));
writeFileSync(join(root, 'secret.txt'), 'secret');
writeFileSync(join(root, 'public', 'index.html'), '<h1>hi</h1>');
writeFileSync(join(root, 'public', 'data.txt'), '0123456789abcdef');
writeFileSync(join(root, 'public', 'taken.txt'), 'file');

@Path('taken.txt')
class TakenResource {
  @GET get(): string {
    return 'resource';
  }
}

const app = RestApplication.build({ classes: [TakenResource], directory: root, config: resolveConfig({ overrides: { 'framework.http.static.directory': join(root, 'public') } }) });
const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://localhost${path}`, { headers }));

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

  it('never serves outside the directory, whatever the encoding', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2E%2E%5Csecret.txt', '/a/%252e%252e/secret.txt']) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it('lets resource endpoints take precedence', async () => {
    expect(await (await get('/taken.txt')).text()).toBe('resource');
  });
});
