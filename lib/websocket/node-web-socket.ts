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
export const nodeWebSocket: WebSocketFactory = (url, headers) => {
  const { WebSocket } = loadPackage<typeof import('ws')>('ws');
  return new WebSocket(url, { headers }) as unknown as ClientWebSocket;
};
