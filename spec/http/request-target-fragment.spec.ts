// A request target carrying a fragment (`GET /files/a#b`, which RFC 9112 §3.2 does not allow but Node's parser lets
// through) means on Node's listener what it means to `app.fetch`: the fragment belongs to neither the path nor the
// query, as the URL parser reads it. The listener took such a target as plain and routed `a#b`, where the same
// request through fetch routed `a`; a static file asked for as `/hello.txt#top` was not found.
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { GET, Path, RestApplication, RestPath, RestQuery, type RunningServer } from '../../lib';
import { tempDir } from '../support/temp-dir';

@Path('files')
class Files {
  @GET @Path('{name}') get(@RestPath() name: string, @RestQuery() v?: string): string {
    return `${name}|${v ?? ''}`;
  }
}

const directory = tempDir('fragment');
let server: RunningServer;
let app: ReturnType<typeof RestApplication.build>;
beforeAll(async () => {
  writeFileSync(join(directory, 'hello.txt'), 'hello');
  app = RestApplication.build({ classes: [Files], overrides: { 'framework.http.static.directory': directory } });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** The status line and body of one request sent as written, the target unchanged (fetch would drop the fragment). */
function send(target: string): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve([data.slice(0, data.indexOf('\r\n')), data.slice(data.indexOf('\r\n\r\n') + 4)]));
  });
}

describe('a request target with a fragment', () => {
  it('routes without the fragment on the Node listener, as app.fetch does', async () => {
    for (const target of ['/files/a#b', '/files/a?v=1#b', '/files/a#b?v=2']) {
      const fetched = await app.fetch(new Request(`http://127.0.0.1${target}`));
      const [status, body] = await send(target);
      expect([target, status, body]).toEqual([target, 'HTTP/1.1 200 OK', await fetched.text()]);
    }
    expect((await send('/files/a?v=1#b'))[1]).toBe('a|1');
  });

  it('finds a static file asked for with a fragment', async () => {
    expect(await send('/hello.txt#top')).toEqual(['HTTP/1.1 200 OK', 'hello']);
  });
});
