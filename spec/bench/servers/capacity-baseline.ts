/**
 * The capacity bench's baselines, written by hand on `node:http` and `ws` as their users would: `GET /capacity/sse`
 * holds an SSE response and writes rxrest's keep-alive comment (`:\n\n`) to every held response every argv[2] ms
 * (one timer for all); `/capacity/ws` is a bare `ws` socket, pinged every argv[2] ms and cut when the last ping went
 * unanswered (one timer for all); `POST /capacity/publish` writes one event to all of them: the frame rxrest writes
 * for it (`id:<id>\ndata:<json>\n\n` on SSE, the JSON as a text message on a socket).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const streams = new Set<ServerResponse>();
const sockets = new WebSocketServer({ noServer: true });
const unanswered = new WeakSet<WebSocket>();
let sequence = 0;

function publish(): void {
  const data = JSON.stringify({ t: performance.timeOrigin + performance.now() });
  const frame = `id:${Date.now()}-${sequence++}\ndata:${data}\n\n`;
  for (const response of streams) response.write(frame);
  for (const socket of sockets.clients) socket.send(data);
}

function beat(): void {
  for (const response of streams) response.write(':\n\n');
  for (const socket of sockets.clients) {
    if (unanswered.has(socket)) {
      socket.terminate();
      continue;
    }
    unanswered.add(socket);
    socket.ping();
  }
}

const server = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/capacity/publish') {
    publish();
    return void response.writeHead(202).end();
  }
  if (request.url !== '/capacity/sse') return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.flushHeaders();
  streams.add(response);
  response.once('close', () => streams.delete(response));
});

server.on('upgrade', (request, socket, head) => {
  if (request.url !== '/capacity/ws') return void socket.destroy();
  sockets.handleUpgrade(request, socket, head, (ws) => ws.on('pong', () => unanswered.delete(ws)));
});

const heartbeat = setInterval(beat, Number(process.argv[2] ?? 15_000));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${READY_PREFIX}${(server.address() as AddressInfo).port}\n`);
  followParent(() => {
    clearInterval(heartbeat);
    server.close();
  });
});
