/** Letting `listen()`'s connections go at shutdown, and the plain port that only redirects. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server, Http2Session, ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { HostRules } from '../http/allowed-hosts';
import { NOSNIFF, refuse } from './own-answers';
import { hostOf } from './request-host';
import { nodeHttp } from './node-http';

export type NodeServer = Server | Http2Server | Http2SecureServer;

/** Idle ones at once (and as they become idle), the rest after the grace period; HTTP/2 sessions get a GOAWAY. */
export interface Connections {
  closeIdle(): void;
  closeAll(): void;
}

export function httpConnections(server: Server): Connections {
  return { closeIdle: () => server.closeIdleConnections(), closeAll: () => server.closeAllConnections() };
}

/**
 * Node's nghttp2 ends a session flooded with resets (a GOAWAY), then reads its socket no more: such a session, closed,
 * never finished, and destroyed it could still keep its socket (a file descriptor and the session's memory) for good.
 */
function destroySession(session: Http2Session, socket: Socket): void {
  session.destroy();
  socket.destroy();
}

/**
 * Node's HTTP/2 server has no keep-alive timeout: a connection that never sent a request (not even the h2c preface),
 * or whose requests were all answered, was held for good. A session carrying a stream, however silent, stays.
 * One closed that has not ended another `idleMs` later is destroyed.
 */
function closeWhenIdle(session: Http2Session, socket: Socket, idleMs: number): void {
  let open = 0;
  const close = () => {
    if (open > 0) return;
    session.close();
    timer = setTimeout(() => destroySession(session, socket), idleMs).unref();
  };
  // One timer for the session's life, restarted when the last open stream ends.
  let timer = setTimeout(close, idleMs).unref();
  const ended = () => {
    if (--open === 0) timer.refresh();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    stream.once('close', ended);
  });
  session.once('close', () => clearTimeout(timer));
}

/** HTTP/1.1 over the HTTP/2 TLS port (ALPN fallback), which Node's `closeIdleConnections` skips there. */
function fallbackConnections(server: NodeServer): Connections {
  const active = new Map<Socket, number>();
  // Count each socket's requests in flight. The socket's close is listened to once, not per request: a keep-alive
  // connection would pile up a listener for each.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.httpVersionMajor !== 1) return;
    const socket = request.socket;
    const open = active.get(socket);
    if (open === undefined) socket.once('close', () => active.delete(socket));
    active.set(socket, (open ?? 0) + 1);
    response.once('close', () => {
      const left = active.get(socket);
      if (left !== undefined) active.set(socket, left - 1);
    });
  });
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket: Socket & { alpnProtocol?: string | false }) => {
    if (socket.alpnProtocol === 'h2') return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    closeIdle() {
      for (const socket of sockets) if (!active.get(socket)) socket.destroy();
    },
    closeAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** An HTTP/2 server has no `closeIdleConnections`; `idleMs` (the keep-alive timeout; 0: never) closes idle sessions. */
export function http2Connections(server: NodeServer, idleMs: number): Connections {
  const sessions = new Map<Http2Session, Socket>();
  let opened: Http2Session | undefined;
  server.on('session', (session: Http2Session) => (opened = session));
  // Node's own listener, the first of either event, has just made the session of this HTTP/2 socket: `opened`.
  const track = (socket: Socket) => {
    const session = opened!;
    opened = undefined;
    sessions.set(session, socket);
    session.once('close', () => sessions.delete(session));
    if (idleMs > 0) closeWhenIdle(session, socket, idleMs);
  };
  server.on('connection', (socket: Socket) => opened && track(socket));
  server.on('secureConnection', (socket: Socket) => opened && track(socket));
  const fallback = fallbackConnections(server);
  return {
    closeIdle() {
      for (const session of sessions.keys()) if (!session.closed) session.close();
      fallback.closeIdle();
    },
    closeAll() {
      for (const [session, socket] of sessions) destroySession(session, socket);
      fallback.closeAll();
    },
  };
}

/** `insecure-requests=redirect`; a Host the server does not serve is refused rather than redirected to. */
export function redirectServer(tlsPort: () => number, hosts: HostRules | undefined, nosniff: boolean): Server {
  return nodeHttp().createServer((request, response) => {
    let sent = hostOf(request);
    let target = request.url ?? '/';
    // An absolute-form target names the host in place of `Host` (RFC 9112 §3.2.2); its path alone follows the origin.
    if (sent !== null && /^https?:\/\//.test(target) && URL.canParse(target)) {
      const absolute = new URL(target);
      [sent, target] = [absolute.host, absolute.pathname + absolute.search];
    }
    if (sent === null || (hosts?.allows && !hosts.allows(sent)))
      return refuse(response, 'RXREST_INVALID_HOST', 'The request is for a host this server does not serve', nosniff);
    const host = sent.replace(/:\d+$/, '');
    const port = tlsPort();
    const origin =
      hosts?.public?.scheme === 'https' ? hosts.public.origin : `https://${host}${port === 443 ? '' : `:${port}`}`;
    const location = `${origin}${target}`;
    // 308 keeps the method and body: a POST is repeated as a POST.
    response.writeHead(308, { location, 'content-length': 0, ...(nosniff ? NOSNIFF : {}) }).end();
  });
}
