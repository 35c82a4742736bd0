/** WebSocket endpoints in the resource style: `@WebSocketEndpoint(path)` on a class, `@On...` on its methods. */
import { classMeta, metaKey } from '../metadata/store';
import { methodTag } from './decorator-types';

export const SOCKET_PATH = metaKey<string>('websocket-path');

export type SocketCallbackKind = 'open' | 'text' | 'binary' | 'close' | 'error';

export const SOCKET_CALLBACK = metaKey<SocketCallbackKind>('websocket-callback');

/**
 * Makes the class a WebSocket endpoint at `path` (path parameters allowed, as in `@Path`). The upgrade request goes
 * through the application's filters and security like a `GET` to that path; a plain `GET` there answers 426.
 * The class is named after Quarkus's `@WebSocket`, which would hide the global `WebSocket` wherever it is imported.
 *
 * @example
 * \@WebSocketEndpoint('/ws/echo')
 * class Echo {
 *   \@OnTextMessage
 *   echo(message: string): string { return message; }
 * }
 */
export function WebSocketEndpoint(path: string): (target: Function) => void {
  return (target) => classMeta(target).tags.set(SOCKET_PATH, path);
}

/** Called once the socket is open; what it returns (a value, a Promise, an Observable) is sent. */
export const OnOpen: MethodDecorator = methodTag(SOCKET_CALLBACK, 'open');

/**
 * Called for text messages: with each message (decoded by the parameter's type: a string as is, a class or
 * `@Body({ schema })` as validated JSON), or once with a `Multi` of every message. What it returns is sent, in order.
 */
export const OnTextMessage: MethodDecorator = methodTag(SOCKET_CALLBACK, 'text');

/** Called for binary messages, as `@OnTextMessage` is for text (a `Uint8Array`/`Buffer` parameter gets the bytes). */
export const OnBinaryMessage: MethodDecorator = methodTag(SOCKET_CALLBACK, 'binary');

/** Called once the socket has closed (`WebSocketConnection.closeCode` and `.closeReason` say how). */
export const OnClose: MethodDecorator = methodTag(SOCKET_CALLBACK, 'close');

/**
 * Called with an error of a message method or a message that cannot be decoded; what it returns is sent and the
 * socket stays open (unless the failed method took a `Multi`: its pipeline is over, and the socket closes).
 */
export const OnError: MethodDecorator = methodTag(SOCKET_CALLBACK, 'error');
