/**
 * A WebSocket as rxrest's socket session speaks to it, whatever runtime made it: the session (lib/websocket) knows
 * nothing else of the socket, so each runtime only adapts its own socket to this. Implemented for `ws` on Node
 * (`lib/websocket/ws-port.ts`); Bun's `server.upgrade` (a `ServerWebSocket`: `send`, `close`, `ping`, `cork`,
 * `getBufferedAmount()`, events through the server's `websocket` handlers), `Deno.upgradeWebSocket` and workerd's
 * `WebSocketPair` (a Web `WebSocket`: `send`, `close`, `bufferedAmount`, `message`/`close`/`error` events; no ping,
 * pause or cork) fit it too. Pure types: it sits in the lowest layer so that runtime adapters can implement it.
 */

/** The socket's `readyState` while it is open (as for a Web `WebSocket`). */
export const SOCKET_OPEN = 1;

/**
 * What a socket written at once when its connection takes the bytes (`ws`, Bun: only what the kernel refused is
 * buffered) may hold before its session waits.
 */
export const HIGH_WATER = 64 * 1024;

/** What happens to a socket, told to its session (at most one listener per socket). */
export interface SocketListener {
  /** A whole message: text as its UTF-8 bytes, or binary (a `Buffer`: convert an `ArrayBuffer` or a string). */
  message(data: Buffer, binary: boolean): void;
  /** The peer pinged (it is alive: an idle timeout counts it). */
  ping(): void;
  /** The peer answered a ping. */
  pong(): void;
  /** The socket closed (cleanly or not: 1006 when the connection was lost); told once. */
  closed(code: number, reason: string): void;
  /** An error of the connection (the socket then closes too). */
  error(error: Error): void;
}

export interface SocketPort {
  /** `SOCKET_OPEN` while messages may be sent. */
  readonly readyState: number;
  /** Bytes sent but not yet handed to the connection (`getBufferedAmount()` on Bun). */
  readonly bufferedAmount: number;
  /**
   * How many bytes the socket may hold (`bufferedAmount`) before its session waits for it to drain: where a send is
   * counted until the runtime has written it (a Web `WebSocket`), more than where it is written at once when it can.
   */
  readonly highWater: number;
  /** Sends one message: a string as text, bytes as binary; `sent` (when given) once it is written out. */
  send(message: string | Uint8Array, sent?: () => void): void;
  /** Starts the closing handshake with `code` and `reason` (at most 123 bytes). */
  close(code: number, reason: string): void;
  /** Cuts the connection at once, without a closing handshake (a Web `WebSocket`, which cannot, starts one). */
  terminate(): void;
  /** Sends a ping; absent where the runtime cannot (then no peer is cut for not answering). */
  ping?(): void;
  /** Stops reading (TCP then holds the peer back), and reads again; absent where the runtime cannot. */
  pause?(): void;
  resume?(): void;
  /** Holds the messages sent in this tick for one write at its end; absent where each goes alone. */
  cork?(): void;
  /** Starts telling `listener` what happens to the socket. */
  listen(listener: SocketListener): void;
}
