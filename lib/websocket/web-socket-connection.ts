/** `WebSocketConnection`: one open socket as its endpoint's methods see it (inject it by type). */
import { ContextKey } from '../context/context-key';
import type { RequestContext } from '../context/request-context';
import { registerContextType } from '../params/context-types';

/**
 * One WebSocket: its id, the facts of the upgrade request (path and query parameters, headers), and `send`/`close`.
 * A parameter of this type receives it in any method of a `@WebSocketEndpoint` class.
 *
 * @example
 * \@OnOpen
 * greet(connection: WebSocketConnection): string { return `hello ${connection.pathParam('room')}`; }
 */
export abstract class WebSocketConnection {
  #id: string | undefined;

  /** @internal the socket's session is its connection. */
  protected constructor(
    /** @internal the upgrade request. */
    protected readonly request: RequestContext,
  ) {}

  /** Unique among this process's connections (made when first asked for). */
  get id(): string {
    return (this.#id ??= crypto.randomUUID());
  }

  /** As JSON, the connection is its id (what its fields were before the session became the connection). */
  toJSON(): { id: string } {
    return { id: this.id };
  }

  /** The upgrade request's headers. */
  get headers(): Headers {
    return this.request.headers;
  }

  /** The path the socket was opened on, decoded. */
  get path(): string {
    return this.request.path;
  }

  /** A path parameter of the endpoint's template. */
  pathParam(name: string): string | undefined {
    return this.request.pathParams[name];
  }

  /** The first value of a query parameter of the upgrade request. */
  queryParam(name: string): string | undefined {
    return this.request.queryValues(name)?.[0];
  }

  /** Whether the socket still takes messages. */
  abstract get isOpen(): boolean;

  /** Once closed: the close code the peer or the server gave (1006 when the connection was lost), and its reason. */
  abstract readonly closeCode: number | undefined;
  abstract readonly closeReason: string;

  /**
   * Sends a message after those already queued: a string as text, bytes as binary, anything else as JSON text.
   * Held under the stream budget (`framework.rest.stream.buffer-size`, `.overflow`); ignored once closed.
   */
  abstract send(message: unknown): void;

  /** Closes the socket after the queued messages (1000 by default; a reason of at most 123 bytes). */
  abstract close(code?: number, reason?: string): void;
}

/** The connection of a socket's upgrade request, set once the endpoint accepted it (what a parameter receives). */
export const CONNECTION = new ContextKey<WebSocketConnection>('websocket-connection');

registerContextType(WebSocketConnection, (ctx) => ctx.get(CONNECTION));
