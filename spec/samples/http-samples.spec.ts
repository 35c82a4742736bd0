import { gunzipSync } from 'node:zlib';
import type { RestApp } from '../../lib';
import { buildSamples } from '../../samples/app';

/** The samples contract of the http issue (preconditions, redirect, compression, conditional inclusion), in process. */
describe('samples application (http contract)', () => {
  let app: RestApp;
  beforeAll(() => {
    app = buildSamples();
  });
  const call = async (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://localhost${path}`, init));

  it('serves /conditional with ETag and Last-Modified, and answers 304 and 412 by the preconditions', async () => {
    const first = await call('/conditional');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(first.headers.get('etag')).toBe('"v1"');
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(await first.text()).toBe('Some resource');
    const notModified = await call('/conditional', { headers: { 'If-Modified-Since': lastModified } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    const put = await call('/conditional', {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain', 'If-Match': 'v1' },
      body: 'New text',
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe('"v2"');
    expect(await put.text()).toBe('New text');
    const stale = await call('/conditional', {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain', 'If-Match': 'v1' },
      body: 'Lost update',
    });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe('"v2"');
    expect(await stale.text()).toBe('');
    expect(await (await call('/conditional')).text()).toBe('New text');
  });

  it('stores fruits at /stored-fruits with 303 See Other to an absolute Location, and 404 for unknown ids', async () => {
    const created = await call('/stored-fruits', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Mango', description: 'Tropical' }),
    });
    expect(created.status).toBe(303);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^http:\/\/localhost\/stored-fruits\/\d+$/);
    const fetched = await app.fetch(new Request(location));
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({
      id: Number(location.split('/').pop()),
      name: 'Mango',
      description: 'Tropical',
    });
    const second = await call('/stored-fruits', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Kiwi' }),
    });
    expect(Number(second.headers.get('location')!.split('/').pop())).toBe(Number(location.split('/').pop()) + 1);
    expect((await call('/stored-fruits/999999')).status).toBe(404);
  });

  it('gzips text for clients that accept it but leaves JSON alone', async () => {
    const text = await call('/conditional', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(text.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await text.arrayBuffer())).toString()).toMatch(/Some resource|New text/);
    const json = await call('/fruits', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(json.headers.get('content-encoding')).toBeNull();
  });

  it('gzips the static page for clients that accept it', async () => {
    const page = await call('/index.html', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(page.headers.get('vary')).toContain('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await page.arrayBuffer())).toString()).toContain('<');
  });

  it('leaves out the dev-only resource in prod and the resource disabled by configuration', async () => {
    expect((await call('/dev-info')).status).toBe(404);
    expect((await call('/beta')).status).toBe(404);
    const dev = buildSamples({ 'framework.profile': 'dev', 'samples.beta.disabled': 'false' });
    expect(await (await dev.fetch(new Request('http://localhost/dev-info'))).text()).toBe('dev profile');
    expect(await (await dev.fetch(new Request('http://localhost/beta'))).text()).toBe('beta');
  });
});
