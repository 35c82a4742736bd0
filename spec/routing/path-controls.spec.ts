// A path names things, and a control character is never part of a name: `%00` cuts names short in C-backed code (file
// systems, databases) and RFC 3986 §7.3 says to refuse it where raw data is not expected. `GET /items/a%00b` reached the
// method as a path parameter holding U+0000, `%0a` and `%0d` likewise, and a static file named with a newline was
// served. Every encoded C0 control and DEL in the path now answers 400 before routing, for a resource, a static file
// and a WebSocket upgrade alike; the query, headers, cookies and forms carry any text, as before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GET,
  MatrixParam,
  OnTextMessage,
  Path,
  RestApplication,
  RestPath,
  RestQuery,
  WebSocketEndpoint,
  resolveConfig,
  type RunningServer,
} from '../../lib';
import { send } from '../support/http';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';
import { openSocket, Refused } from '../support/ws-client';

@Path('items')
class Items {
  @GET @Path('{id}') item(@RestPath() id: string, @MatrixParam('flavour') flavour?: string): unknown {
    return { id, flavour: flavour ?? null };
  }
  @GET find(@RestQuery() name: string): unknown {
    return { name };
  }
}

@WebSocketEndpoint('/ws/{room}')
class Room {
  @OnTextMessage echo(message: string): string {
    return message;
  }
}

describe('a control character in the request path', () => {
  const site = tempDir('path-controls');
  let server: RunningServer;
  beforeAll(async () => {
    writeFileSync(join(site, 'a\nb'), 'a file named with a newline');
    writeFileSync(join(site, 'plain.txt'), 'plain');
    server = await RestApplication.build({
      classes: [Items, Room],
      config: resolveConfig({ overrides: { 'framework.http.static.directory': site } }),
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  const answer = async (path: string) => {
    const reply = await within(send(`${server.url}${path}`), `GET ${path}`);
    return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> };
  };

  it('answers 400 with a problem for NUL, every other C0 control and DEL, never reaching the method', async () => {
    for (const path of [
      '/items/a%00b',
      '/items/%00',
      '/items/a%0Ab',
      '/items/a%0db',
      '/items/a%09b',
      '/items/a%1fb',
      '/items/a%7Fb',
    ]) {
      const { status, body } = await answer(path);
      expect([path, status, body.code]).toEqual([path, 400, 'RXREST_PATH_CONTROL_CHARACTER']);
      expect(body.detail).not.toContain('\u0000');
    }
  });

  it('answers 400 for one in a matrix parameter or a path no resource matches', async () => {
    expect((await answer('/items/a;flavour=x%00y')).status).toBe(400);
    expect((await answer('/nothing/here%00')).status).toBe(400);
  });

  it('answers 400 for a static file, instead of serving one named with a newline', async () => {
    expect((await answer('/a%0Ab')).body.code).toBe('RXREST_PATH_CONTROL_CHARACTER');
    expect((await within(send(`${server.url}/plain.txt%00.json`), 'the NUL-suffixed file')).status).toBe(400);
    expect((await within(send(`${server.url}/plain.txt`), 'the plain file')).body).toBe('plain');
  });

  it('answers 400 to a WebSocket upgrade', async () => {
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/a%00b`);
    const refused = await within(
      socket.opened.then(
        () => new Error('the socket opened'),
        (error: unknown) => error,
      ),
      'the answer to the handshake',
    );
    socket.socket.terminate();
    expect(refused).toBeInstanceOf(Refused);
    expect((refused as Refused).status).toBe(400);
    expect(JSON.parse((refused as Refused).body)).toMatchObject({ code: 'RXREST_PATH_CONTROL_CHARACTER' });
  });

  it('is not fooled by an overlong form, bytes that are not UTF-8, or a double encoding', async () => {
    // Overlong `%C0%80` and `%FF` are no UTF-8 at all: malformed, as before.
    expect((await answer('/items/a%C0%80b')).body.code).toBe('RXREST_MALFORMED_PATH');
    expect((await answer('/items/a%FF%00b')).status).toBe(400);
    // `%2500` is the text `%00`, which is a name like any other.
    expect(await answer('/items/a%2500b')).toEqual({ status: 200, body: { id: 'a%00b', flavour: null } });
    // A C1 control (U+0085 NEL) is a Unicode character of a name, not an ASCII control.
    expect((await answer('/items/a%C2%85b')).body.id).toBe('a\u0085b');
  });

  it('leaves a query value as it is: a query may carry any text', async () => {
    expect(await answer('/items?name=a%00b%0A')).toEqual({ status: 200, body: { name: 'a\u0000b\n' } });
  });
});
