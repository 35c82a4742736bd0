// What answers GET and HEAD of a file, or of the OpenAPI document, says which methods it takes, over a real socket:
// OPTIONS gets 200 with Allow, another method 405 with Allow, as a resource's path answers them. Both answered 404,
// as though nothing were there. A path with no file stays a 404 for every method.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RestApplication, type RunningServer } from '../../lib';
import { tempDir } from '../support/temp-dir';

const root = tempDir('static-methods');
writeFileSync(join(root, 'hello.txt'), 'hello');

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({
    classes: [],
    overrides: { 'framework.http.static.directory': root },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

const ask = async (method: string, path: string) => {
  const answer = await fetch(`${server.url}${path}`, { method });
  const body = await answer.text();
  return [answer.status, answer.headers.get('allow'), method === 'OPTIONS' ? body : answer.headers.get('content-type')];
};

describe('the methods of a static file and of the OpenAPI document', () => {
  it('answers OPTIONS with 200 and Allow', async () => {
    expect(await ask('OPTIONS', '/hello.txt')).toEqual([200, 'GET, HEAD, OPTIONS', '']);
    expect(await ask('OPTIONS', '/q/openapi')).toEqual([200, 'GET, HEAD, OPTIONS', '']);
  });

  it('answers another method with a 405 problem naming them', async () => {
    for (const path of ['/hello.txt', '/q/openapi']) {
      expect(await ask('POST', path)).toEqual([405, 'GET, HEAD, OPTIONS', 'application/problem+json;charset=UTF-8']);
      expect(await ask('DELETE', path)).toEqual([405, 'GET, HEAD, OPTIONS', 'application/problem+json;charset=UTF-8']);
    }
  });

  it('leaves a path with no file a 404, whatever the method', async () => {
    for (const method of ['GET', 'OPTIONS', 'POST']) expect((await ask(method, '/missing.txt'))[0]).toBe(404);
    expect(await ask('GET', '/hello.txt')).toEqual([200, null, 'text/plain']);
  });
});
