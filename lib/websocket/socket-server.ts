/** The application's WebSocket server: takes over accepted upgrades, holds the open sockets, pings and closes them. */
import { loadPackage } from '../runtime/load-package';
import { upgradeOnRuntime } from '../runtime/runtime-sockets';
import { timersServeAllRequests } from '../runtime/runtime-name';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';
import { Heartbeat, type Beating } from '../streaming/heartbeat';
import type { SocketHandlers } from './socket-handlers';
import { SocketSession, type SessionHost } from './socket-session';
import type { SocketSettings } from './socket-settings';
import { destroyOnError, forgetUpgrade, upgradeOf } from './upgrades';
import { wsPortClass, type WsPort } from './ws-port';

/** The 101's headers: what the response filters added to it. */
type Headers101 = readonly [string, readonly string[]][];

/** Headers whose values many sockets send alike and none uses for a credential or a secret. */
const SHARED_VALUES = new Set(['host', 'connection', 'upgrade', 'origin', 'user-agent', 'sec-websocket-version']);
// The most texts shared, and the longest: client-chosen names and values cannot grow the table without bound.
const SHARED_TEXTS = 512;
const SHARED_LENGTH = 256;

const SHUTTING_DOWN = 'Server shutting down';

/**
 * The answer to a handshake `ws` refuses (a bad Sec-WebSocket-* header): the 400 problem of `reason` (`ws`'s words,
 * naming the header) where `ws` would write HTML with no X-Content-Type-Options; then the socket is closed.
 */
function refuseHandshake(socket: Duplex, reason: string, nosniff: boolean): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(problemDetails('RXREST_MALFORMED_HANDSHAKE', reason));
  const head = [
    'HTTP/1.1 400 Bad Request',
    'Connection: close',
    `Content-Type: ${PROBLEM_JSON};charset=UTF-8`,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  if (nosniff) head.push('X-Content-Type-Options: nosniff');
  // RFC 6455 §4.4: a version the server does not speak is answered with the versions it does.
  if (/version/i.test(reason)) head.push('Sec-WebSocket-Version: 13, 8');
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

export class SocketServer implements SessionHost {
  readonly sessions = new Set<SocketSession>();
  /** One timer for every socket's pings, and one for their idle timeout, each with one member for all. */
  readonly #timers: { readonly timer: Heartbeat; readonly member: Beating }[] = [];
  #server: WebSocketServer | undefined;
  /** The response headers of the upgrade being accepted now (the handshake is written synchronously). */
  #headers: readonly string[] = [];
  readonly #switched = new ResponseContext(101);
  readonly #texts = new Map<string, string>();
  /** Once shut down: when the sockets still open are cut. */
  #cutAt: number | undefined;

  constructor(readonly settings: SocketSettings) {
    const { pingIntervalMs, idleTimeoutMs } = settings;
    if (pingIntervalMs > 0) this.#every(pingIntervalMs, (session) => session.beat());
    // Checked four times a timeout: a silent socket closes within a quarter of it past the timeout. Not where a timer
    // cannot serve every request (workerd: the one timer would run in the first socket's request; docs/runtimes.md).
    if (idleTimeoutMs > 0 && timersServeAllRequests())
      this.#every(Math.max(idleTimeoutMs / 4, 10), (session, now) => session.checkIdle(now));
  }

  /**
   * Completes `ctx`'s handshake with the headers the response filters gave its 101, and starts the session: through
   * `ws` for an upgrade `listen()` holds, else through the runtime's own API, whose answer is returned.
   */
  accept(ctx: RequestContext, handlers: SocketHandlers): Response | undefined {
    const headers = [...ctx.response!.headers.entries()];
    // Sent with the handshake, the 101 is read only for its status now: one bare 101 stands for it on every socket
    // (each would keep ~300 bytes), unless its methods take the response (what one writes must not reach the others).
    if (!handlers.ownResponse) ctx.response = this.#switched;
    const upgrade = upgradeOf(ctx);
    if (!upgrade) return this.#acceptOnRuntime(ctx, handlers, headers);
    const { incoming, outgoing } = ctx.exchange as { incoming: IncomingMessage; outgoing: ServerResponse };
    forgetUpgrade(incoming);
    // The socket is the handshake's now: the response made to answer otherwise lets go of it.
    outgoing.detachSocket(upgrade.socket as Socket);
    // `ws` writes them as `Name: value` lines.
    this.#headers = headers.flatMap(([name, values]) => values.map((value) => `${name}: ${value}`));
    // A handshake `ws` refuses (a bad key or version) is answered 400 by it: the request's clean-ups run then.
    const refused = () => void ctx.complete().catch(() => undefined);
    upgrade.socket.once('close', refused);
    try {
      this.#wss().handleUpgrade(incoming, upgrade.socket, upgrade.head, (socket) => {
        upgrade.socket.off('close', refused).off('error', destroyOnError);
        const port = socket as unknown as WsPort;
        const session = new SocketSession(port, ctx, handlers, this);
        port.listen(session, upgrade.socket);
        // The handshake is answered: what the socket's methods read of the request is kept, Node's objects let go.
        ctx.releaseNode(this.#keepHeaders);
        this.#start(session);
      });
    } finally {
      this.#headers = [];
    }
  }

  #acceptOnRuntime(ctx: RequestContext, handlers: SocketHandlers, headers: Headers101): Response | undefined {
    const head = new Headers();
    for (const [name, values] of headers) for (const value of values) head.append(name, value);
    const upgraded = upgradeOnRuntime(ctx.request, ctx.environment, head);
    if (!upgraded) throw new Error('the runtime refused the WebSocket upgrade');
    const session = new SocketSession(upgraded.port, ctx, handlers, this);
    upgraded.port.listen(session);
    this.#start(session);
    return upgraded.answer;
  }

  remove(session: SocketSession): void {
    if (this.sessions.delete(session) && this.sessions.size === 0)
      for (const { timer, member } of this.#timers) timer.leave(member);
  }

  /** Closes every socket with 1001 after its queued messages; those still open after `graceMs` are cut. */
  shutdown(graceMs: number): void {
    this.#cutAt = Date.now() + graceMs;
    for (const session of this.sessions) session.close(1001, SHUTTING_DOWN);
    if (this.sessions.size === 0) return;
    setTimeout(() => {
      for (const session of this.sessions) session.terminate();
    }, graceMs).unref();
  }

  /** The server closed after a shutdown: sockets of a later `listen()` stay open. */
  reopen(): void {
    this.#cutAt = undefined;
  }

  /**
   * Holds (to ping it, or close it at shutdown) and starts `session`; one whose handshake was in the pipeline when the
   * shutdown began closes as those open then did.
   */
  #start(session: SocketSession): void {
    this.sessions.add(session);
    if (this.sessions.size === 1) for (const { timer, member } of this.#timers) timer.join(member);
    session.start();
    if (this.#cutAt === undefined) return;
    session.close(1001, SHUTTING_DOWN);
    setTimeout(() => session.terminate(), Math.max(0, this.#cutAt - Date.now())).unref();
  }

  /** The raw headers an open socket keeps, names and common values shared (~250 bytes a socket, a tenth of it all). */
  readonly #keepHeaders = (raw: readonly string[]): readonly string[] =>
    raw.map((text, i) => (i % 2 === 0 || SHARED_VALUES.has(raw[i - 1]!.toLowerCase()) ? this.#shared(text) : text));

  #shared(text: string): string {
    const known = this.#texts.get(text);
    if (known === undefined && text.length <= SHARED_LENGTH && this.#texts.size < SHARED_TEXTS)
      this.#texts.set(text, text);
    return known ?? text;
  }

  /** A timer telling every open session, every `periodMs`, while there is one. */
  #every(periodMs: number, tell: (session: SocketSession, now: number) => void): void {
    const member = {
      beat: () => {
        const now = Date.now();
        for (const session of this.sessions) tell(session, now);
      },
    };
    this.#timers.push({ timer: new Heartbeat(periodMs), member });
  }

  #wss(): WebSocketServer {
    if (this.#server) return this.#server;
    const ws = loadPackage<typeof import('ws')>('ws');
    const server = new ws.WebSocketServer({
      noServer: true,
      clientTracking: false,
      // With compression, ws counts the inflated size: a small frame that inflates past it closes with 1009 too.
      maxPayload: this.settings.maxMessageSize,
      maxFragments: this.settings.maxFragments,
      perMessageDeflate: this.settings.compression,
      WebSocket: wsPortClass(ws),
    });
    server.on('headers', (lines: string[]) => lines.push(...this.#headers));
    // With a listener, ws leaves the answer to a malformed handshake to it: problem JSON like every other refusal.
    server.on('wsClientError', (error: Error, socket: Duplex) =>
      refuseHandshake(socket, error.message, this.settings.nosniff),
    );
    return (this.#server = server);
  }
}
