// Open WebSockets against the caps on open streams, over real sockets: a socket is a stream (one message per item,
// under the stream budget), so one client holds at most framework.http.limits.max-streams-per-client of them and the
// process at most framework.http.limits.max-streams, with stream answers counted alike; a closed socket, and a refused
// upgrade, give their place back. Without it one address opened 1,500 sockets to the samples' /ws/echo.
import { NEVER, concat, of } from 'rxjs';
import { request } from 'node:http';
import {
  GET,
  OnTextMessage,
  Path,
  Produces,
  WebSocketEndpoint,
  multi,
  type Multi,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { openSocket, Refused, type TestSocket } from '../support/ws-client';

@WebSocketEndpoint('/ws/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

@Path('events')
class EventResource {
  @GET
  @Produces('text/event-stream')
  events(): Multi<string> {
    return multi(concat(of('open'), NEVER));
  }
}

function listen(overrides: Record<string, string | number>): Promise<RunningServer> {
  return buildApp([EchoSocket, EventResource], { 'framework.rest.sse.keep-alive': '0', ...overrides }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
}

const wsUrl = (server: RunningServer) => `${server.url.replace(/^http/, 'ws')}/ws/echo`;

/** Opens a socket; resolves with it once open, or with the status and problem of its refused handshake. */
async function opened(server: RunningServer): Promise<TestSocket | Refused> {
  const socket = openSocket(wsUrl(server));
  return socket.opened.then(
    () => socket,
    (error: unknown) => {
      if (error instanceof Refused) return error;
      throw error;
    },
  );
}

/** The status of an SSE request (its stream then cut). */
function streamStatus(server: RunningServer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/events`, { agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('open WebSockets and the stream caps', () => {
  it('refuse one client its socket past max-streams-per-client with a 429 problem, and take it once one closed', async () => {
    const server = await listen({ 'framework.http.limits.max-streams-per-client': 3 });
    const sockets: TestSocket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const socket = await opened(server);
        expect(socket).not.toBeInstanceOf(Refused);
        sockets.push(socket as TestSocket);
      }
      const refused = await opened(server);
      expect(refused).toBeInstanceOf(Refused);
      expect((refused as Refused).status).toBe(429);
      expect(JSON.parse((refused as Refused).body)).toMatchObject({ code: 'RXREST_TOO_MANY_STREAMS' });
      // Sockets and stream answers share the count.
      expect(await streamStatus(server)).toBe(429);
      // The refused upgrade gave back nothing it did not hold; a closed socket gives its place back.
      sockets.pop()!.socket.close();
      const again = await reopened(server);
      expect(again).not.toBeInstanceOf(Refused);
      sockets.push(again as TestSocket);
      // An open socket still echoes.
      sockets[0]!.socket.send('still here');
      expect(await sockets[0]!.next()).toBe('still here');
    } finally {
      sockets.forEach((socket) => socket.socket.terminate());
      await server.close();
    }
  });

  it('answer 503 past max-streams, whichever client asks', async () => {
    const server = await listen({
      'framework.http.limits.max-streams': 2,
      'framework.http.limits.max-streams-per-client': 0,
    });
    const sockets: TestSocket[] = [];
    try {
      for (let i = 0; i < 2; i++) sockets.push((await opened(server)) as TestSocket);
      const refused = await opened(server);
      expect(refused).toBeInstanceOf(Refused);
      expect((refused as Refused).status).toBe(503);
      expect((refused as Refused).headers['retry-after']).toBe('5');
    } finally {
      sockets.forEach((socket) => socket.socket.terminate());
      await server.close();
    }
  });
});

/** A socket opened once the server has seen a closed one go (its place comes back when the close is handled). */
async function reopened(server: RunningServer): Promise<TestSocket | Refused> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const socket = await opened(server);
    if (!(socket instanceof Refused) || Date.now() > deadline) return socket;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
