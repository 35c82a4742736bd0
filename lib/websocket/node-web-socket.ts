/** `nodeWebSocket`: the socket client's sockets made with `ws` in Node, upgrade headers included. */
import { loadPackage } from '../runtime/load-package';
import type { ClientWebSocket, WebSocketFactory } from '../client/socket-client';

/**
 * Makes a `SocketClient`'s sockets with `ws` (loaded on first use): for Node before 22, which has no global
 * `WebSocket`, and for upgrade requests with headers (`Authorization`), which a global `WebSocket` cannot send.
 *
 * @example
 * const chat = SocketClient.create(ChatSocket, { baseUrl, headers: { authorization: `Bearer ${token}` }, webSocket: nodeWebSocket });
 */
export const nodeWebSocket: WebSocketFactory = (url, headers, options) => {
  const { WebSocket } = loadPackage<typeof import('ws')>('ws');
  // `ws` reads 0 as no bound and keeps the bound in 32 bits (1 byte still lets an empty message through); an
  // undefined one would stand for no bound too, in place of its own 100 MiB.
  const bound = options && { maxPayload: Math.min(Math.max(options.maxPayload, 1), 2 ** 31 - 1) };
  return new WebSocket(url, { headers, ...bound }) as unknown as ClientWebSocket;
};
