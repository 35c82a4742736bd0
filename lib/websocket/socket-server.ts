/**
 * The application's WebSocket server: takes over upgrade requests its endpoints accepted (the `ws` package, loaded
 * with the first socket endpoint, does the handshake), and holds the open sockets so a shutdown can close them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { WebSocketServer } from 'ws';
import type { RequestContext } from '../context/request-context';
import type { SocketHandlers } from './socket-handlers';
import { SocketSession, type SessionSettings } from './socket-session';
import { forgetUpgrade, type Upgrade } from './upgrades';

export interface SocketServerSettings extends SessionSettings {
  /** `framework.websocket.max-message-size`: a larger message closes the socket with 1009. */
  readonly maxMessageSize: number;
  /** Frames one message may come in: more close the socket with 1008 (by `ws`). */
  readonly maxFragments: number;
  /** `framework.websocket.compression`: offer permessage-deflate. */
  readonly compression: boolean;
}

export class SocketServer {
  readonly sessions = new Set<SocketSession>();
  readonly #settings: SocketServerSettings;
  #server: WebSocketServer | undefined;
  /** The response headers of the upgrade being accepted now (the handshake is written synchronously). */
  #headers: readonly string[] = [];

  constructor(settings: SocketServerSettings) {
    this.#settings = settings;
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
        new SocketSession(socket, ctx, handlers, this.#settings, this.sessions).start();
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
