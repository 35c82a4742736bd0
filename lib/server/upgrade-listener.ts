/**
 * The `'upgrade'` listener of `listen()`'s servers: an upgrade request (a WebSocket handshake) is served like any
 * other request, through the application's pipeline, with a response of its own over the raw socket. An endpoint
 * that accepts it takes the socket over; any other answer (a filter's 401, a 404, a 426) is written as usual and
 * the connection closed. Only a WebSocket handshake comes here: any other `Upgrade` stays an HTTP/1.1 request.
 */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { destroyOnError, holdUpgrade, upgradesToWebSocket } from '../websocket/upgrades';

const nodeHttp = () => nodeBuiltin('node:http', 'WebSocket upgrades on the Node listener');

/** How long the connection of an upgrade answered otherwise may wait for its client to close before it is cut. */
const LINGER_MS = 2000;

type RequestListener = (
  incoming: IncomingMessage | Http2ServerRequest,
  outgoing: ServerResponse | Http2ServerResponse,
) => void;

/** Whether raw headers ask for a WebSocket (RFC 6455 §4.1: `Upgrade: websocket`, a token among others). */
function asksForWebSocket(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 7 && raw[i]!.toLowerCase() === 'upgrade') return upgradesToWebSocket(raw[i + 1]!);
  return false;
}

/**
 * The `IncomingMessage` of `listen()`'s HTTP/1.1 servers: a request is an upgrade (taken off the HTTP parser, its body
 * left unread on the socket, for the `'upgrade'` listener) only when it asks for a WebSocket. With an `'upgrade'`
 * listener, Node took every `Upgrade` so: `curl --http2` on `http://` sends `Upgrade: h2c`, and its POST was served
 * with no body (400) on a connection that then closed. RFC 9110 §7.8 lets a server ignore an upgrade it does not
 * speak; Node itself does so without a listener, which is what this gives back (Node 24.9's `shouldUpgradeCallback`).
 */
export function webSocketUpgradesOnly(): typeof IncomingMessage {
  return class UpgradeRequest extends nodeHttp().IncomingMessage {
    /** What the parser said (`Upgrade` and `Connection: upgrade` sent); set by Node before the headers are added. */
    declare upgradeAsked: boolean;

    get upgrade(): boolean {
      return this.upgradeAsked && asksForWebSocket(this.rawHeaders);
    }

    set upgrade(asked: boolean) {
      this.upgradeAsked = asked;
    }
  };
}

/**
 * An answer other than the upgrade ends the connection: its parser was given up for the upgrade. What the client still
 * sends is read and dropped, and the connection is cut once it closes too or `LINGER_MS` later: nothing reads a socket
 * taken off the parser, so a client that never closes its side held the connection for good. A named function, not a
 * closure: one would keep the request and response of an accepted socket alive (about 1.4 KB) while it is open.
 */
function endAfterAnswer(this: ServerResponse): void {
  const socket = this.socket;
  if (socket === null) return;
  this.detachSocket(socket);
  socket.resume();
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

export function upgradeListener(
  listener: RequestListener,
): (incoming: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (incoming, socket, head) => {
    socket.on('error', destroyOnError);
    const outgoing = new (nodeHttp().ServerResponse)(incoming);
    outgoing.assignSocket(socket as Socket);
    outgoing.shouldKeepAlive = false;
    outgoing.once('finish', endAfterAnswer);
    holdUpgrade(incoming, { socket, head });
    listener(incoming, outgoing);
  };
}
