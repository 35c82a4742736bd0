/**
 * What `listen()` needs of its servers' connections: letting them go at shutdown (idle ones at once, HTTP/2
 * sessions with a GOAWAY, the rest at the end of the grace period), and the plain port that only redirects.
 */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server, Http2Session, ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { HostRules } from '../http/allowed-hosts';
import { NOSNIFF, refuse } from './own-answers';
import { hostOf } from './request-host';

const nodeHttp = () => nodeBuiltin('node:http', 'the Node listener (listen())');

/** A Node server of any of the kinds `listen()` opens. */
export type NodeServer = Server | Http2Server | Http2SecureServer;

/**
 * How a server's connections are let go of at shutdown: idle ones at once (and as they become idle), the
 * rest at the end of the grace period. HTTP/2 sessions get a GOAWAY: their open streams may finish.
 */
export interface Connections {
  closeIdle(): void;
  closeAll(): void;
}

export function httpConnections(server: Server): Connections {
  return { closeIdle: () => server.closeIdleConnections(), closeAll: () => server.closeAllConnections() };
}

/**
 * Closes `session` with a GOAWAY once it has had no open stream for `idleMs`, from its first byte on: Node's HTTP/2
 * server has no keep-alive timeout, and a connection that never sent a request (not even the preface on h2c), or whose
 * requests were all answered, was held for good. A session carrying a stream, however silent, stays.
 */
function closeWhenIdle(session: Http2Session, idleMs: number): void {
  let open = 0;
  // One timer for the session's life: it does nothing while a stream is open, and starts again when the last one ends.
  const timer = setTimeout(() => open === 0 && session.close(), idleMs).unref();
  const ended = () => {
    if (--open === 0) timer.refresh();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    stream.once('close', ended);
  });
  session.once('close', () => clearTimeout(timer));
}

/**
 * Sessions and HTTP/1.1 sockets of an HTTP/2 server, which has no `closeIdleConnections` of its own; a session with no
 * open stream for `idleMs` (the keep-alive timeout; 0: never) is closed.
 */
export function http2Connections(server: NodeServer, idleMs: number): Connections {
  const sessions = new Set<Http2Session>();
  const active = new Map<Socket, number>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    if (idleMs > 0) closeWhenIdle(session, idleMs);
  });
  // HTTP/1.1 over the same port (ALPN fallback): count each socket's requests in flight.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.httpVersionMajor !== 1) return;
    const socket = request.socket;
    active.set(socket, (active.get(socket) ?? 0) + 1);
    socket.once('close', () => active.delete(socket));
    response.once('close', () => active.set(socket, (active.get(socket) ?? 1) - 1));
  });
  const h1Sockets = new Set<Socket>();
  server.on('secureConnection', (socket: Socket & { alpnProtocol?: string | false }) => {
    if (socket.alpnProtocol === 'h2') return;
    h1Sockets.add(socket);
    socket.once('close', () => h1Sockets.delete(socket));
  });
  return {
    closeIdle() {
      for (const session of sessions) if (!session.closed) session.close();
      for (const socket of h1Sockets) if (!active.get(socket)) socket.destroy();
    },
    closeAll() {
      for (const session of sessions) session.destroy();
      for (const socket of h1Sockets) socket.destroy();
    },
  };
}

/**
 * The plain port with TLS on and `insecure-requests=redirect`: every request is sent to the same path on HTTPS, on
 * the public origin when one is configured; a Host the server does not serve is refused rather than redirected to.
 * Its header and request timeouts are checked every `connectionsCheckingInterval`, as the other servers' are.
 */
export function redirectServer(
  tlsPort: () => number,
  hosts: HostRules | undefined,
  nosniff: boolean,
  connectionsCheckingInterval?: number,
): Server {
  return nodeHttp().createServer({ connectionsCheckingInterval }, (request, response) => {
    const sent = hostOf(request);
    if (sent === null || (hosts?.allows && !hosts.allows(sent)))
      return refuse(response, 'RXREST_INVALID_HOST', 'The request is for a host this server does not serve', nosniff);
    const host = sent.replace(/:\d+$/, '');
    const port = tlsPort();
    const origin =
      hosts?.public?.scheme === 'https' ? hosts.public.origin : `https://${host}${port === 443 ? '' : `:${port}`}`;
    const location = `${origin}${request.url ?? '/'}`;
    // 308 keeps the method and body: a POST is repeated as a POST.
    response
      .writeHead(308, nosniff ? { location, 'content-length': 0, ...NOSNIFF } : { location, 'content-length': 0 })
      .end();
  });
}
