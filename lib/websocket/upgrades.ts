/** The upgrade requests `listen()` got, until accepted: apart, so a plain application loads nothing of the sockets. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestContext } from '../context/request-context';

/** The socket and first bytes of an upgrade request served by `listen()`. */
export interface Upgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, Upgrade>();

/** Whether an `Upgrade` header's value asks for a WebSocket (RFC 6455 §4.1: `websocket`, a token among others). */
export function upgradesToWebSocket(upgrade: string): boolean {
  return /(^|,)\s*websocket\s*(,|$)/i.test(upgrade);
}

/** Remembers what an upgrade request came with, until its endpoint accepts it (or something else answers). */
export function holdUpgrade(incoming: IncomingMessage, upgrade: Upgrade): void {
  upgrades.set(incoming, upgrade);
}

/** The upgrade behind `ctx`: absent for an ordinary request, and in process (`fetch`), where there is no socket. */
export function upgradeOf(ctx: RequestContext): Upgrade | undefined {
  const incoming = ctx.exchange?.incoming;
  return incoming ? upgrades.get(incoming as IncomingMessage) : undefined;
}

/** The upgrade was taken over. */
export function forgetUpgrade(incoming: IncomingMessage): void {
  upgrades.delete(incoming);
}

/** The upgrade socket's error listener until the handshake (a peer gone is no crash): named, keeping no request. */
export function destroyOnError(this: Duplex): void {
  this.destroy();
}
