/** A WebSocket handshake goes through the pipeline like any request, answered over the raw socket. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { destroyOnError, holdUpgrade, upgradesToWebSocket } from '../websocket/upgrades';
import { endLingering } from './answerable-request';
import { nodeHttp, type RequestListener } from './node-http';

/** RFC 6455 §4.1: `Upgrade: websocket`, a token among others. */
function asksForWebSocket(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 7 && raw[i]!.toLowerCase() === 'upgrade') return upgradesToWebSocket(raw[i + 1]!);
  return false;
}

/**
 * Only a WebSocket handshake leaves the HTTP parser: Node took every `Upgrade` (`curl --http2`'s `h2c` POST lost its
 * body), where RFC 9110 §7.8 lets a server ignore one it does not speak (Node 24.9's `shouldUpgradeCallback`).
 */
export function webSocketUpgradesOnly(): typeof IncomingMessage {
  return class UpgradeRequest extends nodeHttp().IncomingMessage {
    /** Set by Node's parser before the headers are added. */
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
 * Another answer ends the connection (nothing reads it: its parser was given up). A named function: a closure would
 * keep the request and response of an accepted socket alive (about 1.4 KB) while it is open.
 */
function endAfterAnswer(this: ServerResponse): void {
  const socket = this.socket;
  if (socket === null) return;
  this.detachSocket(socket);
  socket.resume();
  endLingering(socket);
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
