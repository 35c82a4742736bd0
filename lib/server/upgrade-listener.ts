/**
 * The `'upgrade'` listener of `listen()`'s servers: an upgrade request (a WebSocket handshake) is served like any
 * other request, through the application's pipeline, with a response of its own over the raw socket. An endpoint
 * that accepts it takes the socket over; any other answer (a filter's 401, a 404, a 426) is written as usual and
 * the connection closed.
 */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { destroyOnError, holdUpgrade } from '../websocket/upgrades';

const nodeHttp = () => nodeBuiltin('node:http', 'WebSocket upgrades on the Node listener');

type RequestListener = (
  incoming: IncomingMessage | Http2ServerRequest,
  outgoing: ServerResponse | Http2ServerResponse,
) => void;

/**
 * An answer other than the upgrade ends the connection: its parser was given up for the upgrade. A named function,
 * not a closure: one would keep the request and response of an accepted socket alive (about 1.4 KB) while it is open.
 */
function endAfterAnswer(this: ServerResponse): void {
  const socket = this.socket;
  if (socket === null) return;
  this.detachSocket(socket);
  socket.end();
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
