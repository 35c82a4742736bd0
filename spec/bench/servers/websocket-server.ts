/**
 * The WebSocket bench server: echoes every text message at `/echo`, as rxrest (`argv[2]` `rxrest`, a
 * `@WebSocketEndpoint` whose method returns the message; `rxrest-deflate` with `framework.websocket.compression`) or
 * as a bare `ws` server on `node:http` (`ws`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { OnTextMessage, RestApplication, resolveConfig, WebSocketEndpoint } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

@WebSocketEndpoint('/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

async function rxrest(deflate: boolean): Promise<{ port: number; close: () => void }> {
  // Pings off on both sides: the bare server sends none.
  // Every socket comes from the bench's one address: the cap on one client's open streams is not what is measured.
  const overrides = {
    'framework.websocket.ping-interval': '0',
    'framework.websocket.compression': deflate,
    'framework.http.limits.max-streams-per-client': '0',
  };
  const app = RestApplication.build({ classes: [EchoSocket], config: resolveConfig({ overrides }) });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  return { port: server.port, close: () => void server.close() };
}

async function bare(): Promise<{ port: number; close: () => void }> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/echo') return socket.destroy();
    sockets.handleUpgrade(request, socket, head, (ws) =>
      ws.on('message', (data: Buffer, binary: boolean) => ws.send(binary ? data : data.toString())),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

async function main(): Promise<void> {
  const { port, close } = process.argv[2] === 'ws' ? await bare() : await rxrest(process.argv[2] === 'rxrest-deflate');
  process.stdout.write(`${READY_PREFIX}${port}\n`);
  followParent(close);
}

void main();
