// Upgrade requests from hostile or ordinary clients, over real sockets: only a WebSocket handshake leaves HTTP/1.1
// (an `Upgrade: h2c` from `curl --http2` is an ordinary request, body included, RFC 9110 §7.8), and the connection of an
// upgrade answered otherwise (a 404, a 403) is let go even when its client never closes its side.
import { connect, type Socket } from 'node:net';
import { Body, OnTextMessage, POST, Path, WebSocketEndpoint, type RunningServer } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { until, within } from '../support/until';

@Path('echo')
class EchoResource {
  @POST
  echo(@Body() text: string): string {
    return `got ${text}`;
  }
}

@WebSocketEndpoint('/ws/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

/** Serves the application for `run`, then cuts every client connection it opened, failed or not. */
async function serving(run: (server: RunningServer, clients: Socket[]) => Promise<void>): Promise<void> {
  const app = buildApp([EchoResource, EchoSocket], { 'framework.http.keep-alive-timeout': '30s' });
  const clients: Socket[] = [];
  await withServer(app, async (server) => {
    try {
      await run(server, clients);
    } finally {
      for (const client of clients) client.destroy();
    }
  });
}

/** A connection that keeps its own side open whatever the server does (a client that never closes). */
function halfOpen(server: RunningServer, clients: Socket[]): Promise<{ socket: Socket; text: () => string }> {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
      clients.push(socket);
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.once('error', reject);
      socket.once('connect', () => resolve({ socket, text: () => text }));
    }),
    'the connection',
  );
}

/** The connections the server holds (a socket counts until it is destroyed). */
function connections(server: RunningServer): Promise<number> {
  return new Promise((resolve, reject) =>
    server.server!.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

const handshake = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';

const h2cPost = (body: string) =>
  'POST /echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n' +
  `HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('upgrade requests on the Node listener', () => {
  it('serve an Upgrade: h2c request (curl --http2 on http://) as HTTP/1.1 with its body, and the connection goes on', async () => {
    await serving(async (server, sockets) => {
      const client = await halfOpen(server, sockets);
      client.socket.write(h2cPost('kiwi'));
      await until(() => (client.text().includes('got kiwi') ? true : undefined), 'the answer to the first POST', 5_000);
      expect(client.text()).toMatch(/^HTTP\/1\.1 200 /);
      // The same connection carries the next request: it never left HTTP/1.1.
      client.socket.write(h2cPost('plum'));
      await until(
        () => (client.text().includes('got plum') ? true : undefined),
        'the answer to the second POST',
        5_000,
      );
      expect(client.text().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    });
  });

  it('let go of the connection of a handshake answered 404, even when its client never closes its side', async () => {
    await serving(async (server, sockets) => {
      const clients = await Promise.all([1, 2, 3].map(() => halfOpen(server, sockets)));
      for (const client of clients) client.socket.write(handshake('/ws/nowhere'));
      await until(
        () => (clients.every((client) => /^HTTP\/1\.1 404 /.test(client.text())) ? true : undefined),
        'the 404 answers',
      );
      // Three clients that never close: the server holds none of their connections a few seconds on.
      await until(async () => ((await connections(server)) === 0 ? true : undefined), 'the connections let go', 10_000);
    });
  });
});
