/**
 * `SocketClient.create(EndpointClass, { baseUrl })`: a WebSocket endpoint's class as a client, each `connect(method)` a
 * cold Observable of the server's messages; unsubscribing closes the socket with 1000.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber, Subscription, TeardownLogic } from 'rxjs';
import { isForbiddenProperty, parseJsonBody } from '../json/safe-json';
import { SOCKET_CALLBACK, SOCKET_PATH } from '../decorators/websocket';
import { findClassMeta } from '../metadata/store';
import { readDesignType } from '../metadata/reflect-shim';
import type { Multi } from '../streaming/multi';
import type { ClientItem, MethodNames } from './client-types';
import { pathSegment } from './path-segment';
import { answerLimits, ResponseTooLargeException, type AnswerLimits } from './answer-limits';

/** The part of the WHATWG `WebSocket` a socket client uses (the global one and `ws` both have it). */
export interface ClientWebSocket {
  binaryType: string;
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
}

/**
 * Makes a socket: the global `WebSocket`, or `ws` (which also takes `headers`, and refuses a message past `maxPayload`
 * bytes before it is whole, closing with 1009 and erring with the code `WS_ERR_UNSUPPORTED_MESSAGE_LENGTH`).
 */
export type WebSocketFactory = (
  url: string,
  headers: Readonly<Record<string, string>> | undefined,
  options?: { readonly maxPayload: number },
) => ClientWebSocket;

export interface SocketClientOptions {
  /** Where the application's paths start: `http://localhost:8080` (or `ws://...`); `https` becomes `wss`. */
  readonly baseUrl: string | URL;
  /** Headers of the upgrade request (`Authorization`...): with `nodeWebSocket` only, a browser's `WebSocket` sends none. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How sockets are made: the global `WebSocket` by default; `nodeWebSocket` (from `rxrest`) for `ws` in Node. */
  readonly webSocket?: WebSocketFactory;
  /**
   * The largest message taken, in characters (bytes for a binary one), 1 Mi by default: a larger one closes the socket
   * with 1009 and fails the connection with a `ResponseTooLargeException`.
   */
  readonly limits?: Pick<AnswerLimits, 'maxItemSize'>;
}

export interface ConnectOptions<In> {
  /** Values of the endpoint path's parameters. */
  readonly path?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** Messages to send, subscribed once the socket is open: strings as text, bytes as binary, the rest as JSON. */
  readonly send?: Observable<In>;
}

/** Raised by a connection the server closed with another code than 1000, or that could not open. */
export class SocketClosedException extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`The WebSocket closed with ${code}${reason ? `: ${reason}` : ''}`);
    this.name = 'SocketClosedException';
  }
}

export type SocketMethodNames<T> = MethodNames<T> & string;

/** What a message method takes: its first parameter (the items of a `Multi`). */
export type SocketMessageIn<F> = F extends (message: infer M, ...rest: never[]) => unknown
  ? M extends Multi<infer T>
    ? T
    : M
  : never;

/** What a client receives from a method: each item of what it returns. */
export type SocketMessageOut<F> = F extends (...args: never[]) => infer R ? ClientItem<R> : never;

const OPEN = 1;

/** The global `WebSocket` (browsers, Node 22 and later), which sends no headers of its own. */
const globalWebSocket: WebSocketFactory = (url, headers) => {
  const global = (globalThis as { WebSocket?: new (url: string) => ClientWebSocket }).WebSocket;
  if (!global || headers)
    throw new TypeError(
      global
        ? "A browser's WebSocket sends no headers: pass webSocket: nodeWebSocket (from 'rxrest', Node) to send them"
        : "There is no global WebSocket here (Node before 22): pass webSocket: nodeWebSocket (from 'rxrest')",
    );
  return new global(url);
};

function encode(message: unknown): string | ArrayBufferLike | ArrayBufferView {
  if (typeof message === 'string') return message;
  if (message instanceof ArrayBuffer || ArrayBuffer.isView(message)) return message;
  return JSON.stringify(message);
}

export class SocketClient<T> {
  readonly #type: Function;
  readonly #options: SocketClientOptions;
  readonly #factory: WebSocketFactory;
  readonly #maxItemSize: number;

  private constructor(type: Function, options: SocketClientOptions) {
    this.#type = type;
    this.#options = options;
    this.#factory = options.webSocket ?? globalWebSocket;
    this.#maxItemSize = answerLimits(options.limits).maxItemSize;
  }

  /** A client of the `@WebSocketEndpoint` class `type`; throws when it is none. */
  static create<T>(type: new (...args: never[]) => T, options: SocketClientOptions): SocketClient<T> {
    if (!findClassMeta(type)?.tags.get(SOCKET_PATH))
      throw new TypeError(`${type.name} is not a @WebSocketEndpoint class`);
    return new SocketClient<T>(type, options);
  }

  /**
   * The messages the server sends on a socket opened to the endpoint, typed by `method`'s answers: text is JSON
   * parsed (as is, when the method is declared to return a string, or when it is no JSON), binary a `Uint8Array`.
   *
   * @example
   * const echo = SocketClient.create(EchoSocket, { baseUrl: 'http://localhost:8080' });
   * echo.connect('echo', { send: of('a', 'b') }).pipe(take(2)).subscribe(console.log); // a, b
   */
  connect<M extends SocketMethodNames<T>>(
    method: M,
    options: ConnectOptions<SocketMessageIn<T[M]>> = {},
  ): Observable<SocketMessageOut<T[M]>> {
    const kind = findClassMeta(this.#type)?.methods.get(method)?.tags.get(SOCKET_CALLBACK);
    if (!kind) throw new TypeError(`${this.#type.name}#${method} is not a method of the WebSocket endpoint`);
    const text = readDesignType('design:returntype', this.#type.prototype, method) === String;
    return new Observable<SocketMessageOut<T[M]>>((subscriber) => this.#open(subscriber, options, text));
  }

  /** `send`'s messages go out once the socket is open. */
  #open(subscriber: Subscriber<unknown>, options: ConnectOptions<unknown>, text: boolean): TeardownLogic {
    // What the factory or the URL throws, the Observable's subscribe turns into its error. A character takes at most
    // 3 bytes of UTF-8 (one beyond the Basic Multilingual Plane takes 4, and counts 2).
    const socket = this.#factory(this.#url(options), this.#options.headers, { maxPayload: 3 * this.#maxItemSize });
    socket.binaryType = 'arraybuffer';
    let sending: Subscription | undefined;
    socket.onopen = () => {
      sending = options.send?.subscribe({
        next: (message) => socket.readyState === OPEN && socket.send(encode(message)),
        error: (error: unknown) => subscriber.error(error),
      });
    };
    socket.onmessage = ({ data }) => this.#receive(socket, subscriber, data, text);
    socket.onclose = ({ code, reason }) => {
      sending?.unsubscribe();
      if (code === 1000) subscriber.complete();
      else subscriber.error(new SocketClosedException(code, reason));
    };
    // `ws` has refused a message past maxPayload while it came, and closes with 1009 itself.
    socket.onerror = (event) => {
      if ((event as { error?: { code?: unknown } }).error?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        subscriber.error(new ResponseTooLargeException('maxItemSize', this.#maxItemSize));
    };
    return () => {
      sending?.unsubscribe();
      socket.onclose = null;
      socket.onmessage = null;
      if (socket.readyState <= OPEN) socket.close(1000);
    };
  }

  /** A message of the server, handed on. */
  #receive(socket: ClientWebSocket, subscriber: Subscriber<unknown>, data: unknown, text: boolean): void {
    if ((data instanceof ArrayBuffer ? data.byteLength : String(data).length) > this.#maxItemSize) {
      // A global WebSocket takes a message of any size: past the bound, the connection ends as a server ends one.
      socket.close(1009, 'A message is too large');
      return subscriber.error(new ResponseTooLargeException('maxItemSize', this.#maxItemSize));
    }
    let message: unknown;
    try {
      message = this.#decode(data, text);
    } catch (error) {
      // A poisoned message ends the connection as the server ends one (1007: data not of the message's type).
      socket.close(1007, 'A message holds a forbidden key');
      return subscriber.error(error);
    }
    subscriber.next(message);
  }

  #decode(data: unknown, text: boolean): unknown {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    const message = String(data);
    if (text) return message;
    try {
      return parseJsonBody(message);
    } catch (error) {
      // No JSON is given as the text it is; JSON with a prototype-poisoning key is refused.
      if (isForbiddenProperty(error)) throw error;
      return message;
    }
  }

  #url(options: ConnectOptions<unknown>): string {
    const template = findClassMeta(this.#type)!.tags.get(SOCKET_PATH)!;
    const path = template.replace(/\{\s*([^}:\s]+)\s*(?::[^}]*)?\}/g, (_whole, name: string) => {
      const value = options.path?.[name];
      if (value === undefined) throw new TypeError(`The path parameter "${name}" of ${template} needs a value`);
      return pathSegment(encodeURIComponent(String(value)), template, name);
    });
    const url = new URL(path.replace(/^\/*/, ''), String(this.#options.baseUrl).replace(/\/*$/, '/'));
    url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
    return url.toString();
  }
}
