/** A WebSocket as the session speaks to it, whatever runtime made it (each adapts its own). Pure types. */

/** The socket's `readyState` while it is open (as for a Web `WebSocket`). */
export const SOCKET_OPEN = 1;

/** What a socket written at once (`ws`, Bun: what the kernel refused is buffered) holds before its session waits. */
export const HIGH_WATER = 64 * 1024;

/** What happens to a socket, told to its session (at most one listener per socket). */
export interface SocketListener {
  /** A whole message: text as its UTF-8 bytes, or binary (a `Buffer`: convert an `ArrayBuffer` or a string). */
  message(data: Buffer, binary: boolean): void;
  /** The peer pinged (it is alive: an idle timeout counts it). */
  ping(): void;
  pong(): void;
  /** The socket closed (cleanly or not: 1006 when the connection was lost); told once. */
  closed(code: number, reason: string): void;
  error(error: Error): void;
}

export interface SocketPort {
  /** `SOCKET_OPEN` while messages may be sent. */
  readonly readyState: number;
  /** Bytes sent but not yet handed to the connection. */
  readonly bufferedAmount: number;
  /** The `bufferedAmount` past which the session waits for a drain (more where a send counts until written). */
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
  listen(listener: SocketListener): void;
}
