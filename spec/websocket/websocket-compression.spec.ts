// permessage-deflate (RFC 7692) over real sockets: off unless framework.websocket.compression turns it on; then a
// client that offers it gets compressed messages both ways, and max-message-size still counts inflated bytes.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { OnTextMessage, WebSocketEndpoint, type RunningServer } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { openSocket, type TestSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

function serving(overrides: Record<string, string>, run: (server: RunningServer) => Promise<void>): Promise<void> {
  return withServer(buildApp([EchoSocket], overrides), run);
}

/** The sockets a test opened, cut after it whatever happened, so a failure leaves none open. */
const opened: TestSocket[] = [];
afterEach(() => opened.splice(0).forEach((socket) => socket.socket.terminate()));

/** A socket offering permessage-deflate (as browsers do), with the TCP socket under it to count bytes. */
async function open(server: RunningServer): Promise<{ socket: TestSocket; tcp: Socket }> {
  const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/echo`, { perMessageDeflate: true });
  opened.push(socket);
  const tcp = new Promise<Socket>((resolve) =>
    socket.socket.once('upgrade', (response: IncomingMessage) => resolve(response.socket as Socket)),
  );
  await socket.opened;
  return { socket, tcp: await tcp };
}

// 100 KB of JSON-like text, as chat or telemetry messages are: it compresses well.
const TEXT = JSON.stringify(Array.from({ length: 3000 }, (_, n) => ({ id: n, kind: 'reading', ok: true }))).slice(
  0,
  100_000,
);

describe('framework.websocket.compression', () => {
  it('is off by default: nothing negotiated, the message sent as it is', async () => {
    await serving({}, async (server) => {
      const { socket, tcp } = await open(server);
      expect(socket.socket.extensions).toBe('');
      socket.socket.send(TEXT);
      expect(await socket.next()).toBe(TEXT);
      expect(tcp.bytesRead).toBeGreaterThan(100_000);
      socket.socket.close(1000);
    });
  });

  it('negotiates permessage-deflate when on, and sends the echo compressed', async () => {
    await serving({ 'framework.websocket.compression': 'true' }, async (server) => {
      const { socket, tcp } = await open(server);
      expect(socket.socket.extensions).toContain('permessage-deflate');
      socket.socket.send(TEXT);
      expect(await socket.next()).toBe(TEXT);
      // The 100 KB echo came in a few KB (handshake included).
      expect(tcp.bytesRead).toBeLessThan(10_000);
      socket.socket.close(1000);
      expect((await socket.closed).code).toBe(1000);
    });
  });

  it('still closes with 1009 a message that inflates past max-message-size, however small on the wire', async () => {
    const overrides = { 'framework.websocket.compression': 'true', 'framework.websocket.max-message-size': '64K' };
    await serving(overrides, async (server) => {
      const { socket } = await open(server);
      socket.socket.send('a'.repeat(1_000_000));
      expect((await socket.closed).code).toBe(1009);
      expect(socket.received).toEqual([]);
    });
  });
});
