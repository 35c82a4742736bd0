/**
 * The application's WebSocket server: takes over upgrade requests its endpoints accepted (the `ws` package, loaded
 * with the first socket endpoint, does the handshake), and holds the open sockets so a shutdown can close them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { WebSocketServer } from 'ws';
import type { JsonMapper } from '../json/json-mapper';
import type { RequestContext } from '../pipeline/request-context';
import { Heartbeat } from '../streaming/heartbeat';
import { messageFraming } from './message-framing';
import type { Framing } from '../streaming/framing';
import type { SocketHandlers } from './socket-handlers';
import { SocketSession, type SessionHost } from './socket-session';
import type { SocketServerSettings } from './socket-settings';
import { forgetUpgrade, type Upgrade } from './upgrades';

export class SocketServer implements SessionHost {
  readonly sessions = new Set<SocketSession>();
  readonly pings: Heartbeat | undefined;
  readonly #settings: SocketServerSettings;
  #server: WebSocketServer | undefined;
  readonly #framings = new WeakMap<JsonMapper, Framing>();
  /** The response headers of the upgrade being accepted now (the handshake is written synchronously). */
  #headers: readonly string[] = [];

  constructor(settings: SocketServerSettings) {
    this.#settings = settings;
    this.pings = settings.pingIntervalMs > 0 ? new Heartbeat(settings.pingIntervalMs) : undefined;
  }

  /** Completes the handshake of `ctx`'s upgrade with `headers` added to the 101, and starts the socket's session. */
  accept(ctx: RequestContext, upgrade: Upgrade, handlers: SocketHandlers, headers: readonly string[]): void {
    const { incoming, outgoing } = ctx.exchange as { incoming: IncomingMessage; outgoing: ServerResponse };
    forgetUpgrade(incoming);
    // The socket is the handshake's now: the response made to answer otherwise lets go of it.
    outgoing.detachSocket(upgrade.socket as Socket);
    this.#headers = headers;
    let started = false;
    // A handshake `ws` refuses (a bad key or version) is answered 400 by it: the request's clean-ups run then.
    upgrade.socket.once('close', () => started || void ctx.complete().catch(() => undefined));
    try {
      this.#wss().handleUpgrade(incoming, upgrade.socket, upgrade.head, (socket) => {
        started = true;
        new SocketSession(socket, upgrade.socket, ctx, handlers, this.#settings, this).start();
      });
    } finally {
      this.#headers = [];
    }
  }

  /** Closes every socket with 1001 after its queued messages; those still open after `graceMs` are cut. */
  shutdown(graceMs: number): void {
    for (const session of this.sessions) session.close(1001, 'Server shutting down');
    if (this.sessions.size === 0) return;
    setTimeout(() => {
      for (const session of this.sessions) session.terminate();
    }, graceMs).unref();
  }

  framing(json: JsonMapper): Framing {
    let framing = this.#framings.get(json);
    if (!framing) this.#framings.set(json, (framing = messageFraming(json)));
    return framing;
  }

  #wss(): WebSocketServer {
    if (this.#server) return this.#server;
    const { WebSocketServer } = require('ws') as typeof import('ws');
    const server = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      // With compression, ws counts the inflated size: a small frame that inflates past it closes with 1009 too.
      maxPayload: this.#settings.maxMessageSize,
      maxFragments: this.#settings.maxFragments,
      perMessageDeflate: this.#settings.compression,
    });
    server.on('headers', (lines: string[]) => lines.push(...this.#headers));
    return (this.#server = server);
  }
}
