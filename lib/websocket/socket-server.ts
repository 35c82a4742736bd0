/**
 * The application's WebSocket server: takes over upgrade requests its endpoints accepted (the `ws` package, loaded
 * with the first socket endpoint, does the handshake), and holds the open sockets, which one timer pings (and one
 * checks for idleness) and a shutdown closes.
 */
import { loadPackage } from '../runtime/load-package';
import { upgradeOnRuntime } from '../runtime/runtime-sockets';
import { timersServeAllRequests } from '../runtime/runtime-name';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { RequestContext } from '../context/request-context';
import { Heartbeat, type Beating } from '../streaming/heartbeat';
import { refuseHandshake } from './refuse-handshake';
import type { SocketHandlers } from './socket-handlers';
import { SocketSession, type SessionHost } from './socket-session';
import type { SocketSettings } from './socket-settings';
import { destroyOnError, forgetUpgrade, type Upgrade } from './upgrades';
import { wsPortClass, type WsPort } from './ws-port';

/** Headers whose values many sockets send alike and none uses for a credential or a secret. */
const SHARED_VALUES = new Set(['host', 'connection', 'upgrade', 'origin', 'user-agent', 'sec-websocket-version']);
/** Texts shared at most: names and values a client chooses cannot grow the table without bound. */
const SHARED_TEXTS = 512;

export class SocketServer implements SessionHost {
  readonly sessions = new Set<SocketSession>();
  /** One timer for every socket's pings, and one for their idle timeout, each with one member for all. */
  readonly #timers: { readonly timer: Heartbeat; readonly member: Beating }[] = [];
  #server: WebSocketServer | undefined;
  /** The response headers of the upgrade being accepted now (the handshake is written synchronously). */
  #headers: readonly string[] = [];
  /** Header names and common values, one string for every socket that sent them. */
  readonly #texts = new Map<string, string>();

  constructor(readonly settings: SocketSettings) {
    const { pingIntervalMs, idleTimeoutMs } = settings;
    if (pingIntervalMs > 0) this.#every(pingIntervalMs, (session) => session.beat());
    // Checked four times a timeout: a silent socket closes within a quarter of it past the timeout. Not where a timer
    // cannot serve every request (workerd: the one timer would run in the first socket's request; docs/runtimes.md).
    if (idleTimeoutMs > 0 && timersServeAllRequests())
      this.#every(Math.max(idleTimeoutMs / 4, 10), (session, now) => session.checkIdle(now));
  }

  /** Completes the handshake of `ctx`'s upgrade with `headers` added to the 101, and starts the socket's session. */
  accept(ctx: RequestContext, upgrade: Upgrade, handlers: SocketHandlers, headers: readonly string[]): void {
    const { incoming, outgoing } = ctx.exchange as { incoming: IncomingMessage; outgoing: ServerResponse };
    forgetUpgrade(incoming);
    // The socket is the handshake's now: the response made to answer otherwise lets go of it.
    outgoing.detachSocket(upgrade.socket as Socket);
    this.#headers = headers;
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
        session.start();
      });
    } finally {
      this.#headers = [];
    }
  }

  /**
   * Upgrades `ctx` through the runtime's own API (Bun, Deno, Workers) with `headers` (`Name: value` lines) on the 101,
   * and starts the socket's session; the runtime's answer to the upgrade.
   */
  acceptOnRuntime(ctx: RequestContext, handlers: SocketHandlers, headers: readonly string[]): Response | undefined {
    const head = new Headers();
    for (const line of headers) head.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
    const upgraded = upgradeOnRuntime(ctx.request, ctx.environment, head);
    if (!upgraded) throw new Error('the runtime refused the WebSocket upgrade');
    const session = new SocketSession(upgraded.port, ctx, handlers, this);
    upgraded.port.listen(session);
    session.start();
    return upgraded.answer;
  }

  add(session: SocketSession): void {
    this.sessions.add(session);
    if (this.sessions.size === 1) for (const { timer, member } of this.#timers) timer.join(member);
  }

  remove(session: SocketSession): void {
    if (this.sessions.delete(session) && this.sessions.size === 0)
      for (const { timer, member } of this.#timers) timer.leave(member);
  }

  /** Closes every socket with 1001 after its queued messages; those still open after `graceMs` are cut. */
  shutdown(graceMs: number): void {
    for (const session of this.sessions) session.close(1001, 'Server shutting down');
    if (this.sessions.size === 0) return;
    setTimeout(() => {
      for (const session of this.sessions) session.terminate();
    }, graceMs).unref();
  }

  /**
   * The raw headers an open socket keeps: each socket's copy of the same names and common values (Node makes new
   * strings for every request) is about 250 bytes, as much as a tenth of what the socket keeps in all.
   */
  readonly #keepHeaders = (raw: readonly string[]): readonly string[] => {
    const kept = new Array<string>(raw.length);
    for (let i = 0; i < raw.length; i += 2) {
      kept[i] = this.#shared(raw[i]!);
      kept[i + 1] = SHARED_VALUES.has(raw[i]!.toLowerCase()) ? this.#shared(raw[i + 1]!) : raw[i + 1]!;
    }
    return kept;
  };

  #shared(text: string): string {
    const known = this.#texts.get(text);
    if (known === undefined && this.#texts.size < SHARED_TEXTS) this.#texts.set(text, text);
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
