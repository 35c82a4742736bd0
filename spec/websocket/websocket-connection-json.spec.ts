// A WebSocketConnection written as JSON (returned in a message, logged by a JSON logger) is its id, whatever the
// object behind it holds; its send takes one message whatever else a caller passes it.
import { OnOpen, WebSocketConnection, WebSocketEndpoint } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { openSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/whoami')
class WhoAmISocket {
  @OnOpen
  open(connection: WebSocketConnection): { connection: WebSocketConnection; id: string } {
    return { connection, id: connection.id };
  }
}

@WebSocketEndpoint('/ws/each')
class EachSocket {
  /** `forEach` passes each message with its index and the array: `send` reads the message only. */
  @OnOpen
  open(connection: WebSocketConnection): void {
    ['a', 'b', 'c'].forEach(connection.send, connection);
  }
}

describe('WebSocketConnection', () => {
  it('sends each message when send is handed to forEach', async () => {
    await withServer(buildApp([EachSocket]), async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/each`);
      await socket.opened;
      expect([await socket.next(), await socket.next(), await socket.next()]).toEqual(['a', 'b', 'c']);
      socket.socket.close();
      await socket.closed;
    });
  });

  it('is written as JSON as its id', async () => {
    await withServer(buildApp([WhoAmISocket]), async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/whoami`);
      await socket.opened;
      const { connection, id } = JSON.parse(await socket.next()) as { connection: unknown; id: string };
      expect(connection).toEqual({ id });
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      socket.socket.close();
      await socket.closed;
    });
  });
});
