/** What the socket ports of Bun, Deno and Workers share: messages held until the runtime opened the socket. */
import { copyBytes, utf8Bytes, utf8Length } from './bytes';
import { SOCKET_OPEN } from './socket-port';

/** How often a socket whose buffer is full is looked at again. */
const DRAIN_LOOK_MS = 5;

/** A received message's bytes (text as UTF-8), a `Buffer` where the runtime has one (else read as a `Uint8Array`). */
export const toBuffer = (data: string | ArrayBuffer | Uint8Array): Buffer =>
  (typeof data === 'string' ? utf8Bytes(data) : copyBytes(data)) as Buffer;

/** What the port needs of a runtime's socket besides sending. */
interface OpenedSocket {
  readonly readyState: number;
  close(code?: number, reason?: string): void;
}

/**
 * Messages sent before the socket opened (an `@OnOpen` greeting), held until it does, the socket counting as open
 * and their bytes as its buffer: a source `@OnOpen` answers is not read ahead unbounded.
 */
export abstract class WaitingPort<S extends OpenedSocket> {
  /** The runtime's socket (Bun's once it opened). */
  socket: S | undefined;
  #waiting: (string | Uint8Array)[] | undefined = [];
  #waitingBytes = 0;
  #closing: [number, string] | undefined;

  protected abstract deliver(message: string | Uint8Array): void;
  protected abstract get socketBuffered(): number;

  get readyState(): number {
    return this.#waiting ? SOCKET_OPEN : this.socket!.readyState;
  }

  /** Bytes sent but not yet handed to the connection: those waiting for the socket to open, then the socket's own. */
  get bufferedAmount(): number {
    return this.#waiting ? this.#waitingBytes : this.socketBuffered;
  }

  send(message: string | Uint8Array, sent?: () => void): void {
    if (this.#waiting) {
      this.#waiting.push(message);
      this.#waitingBytes += typeof message === 'string' ? utf8Length(message) : message.byteLength;
    } else this.deliver(message);
    if (sent) this.#whenWritten(sent);
  }

  /**
   * Calls `sent` once what the socket held has gone out (or it closed). A Web `WebSocket` tells nothing when it drains:
   * it is looked at every few ms, only after a message that may fill it (so only for a slow reader).
   */
  #whenWritten(sent: () => void): void {
    const look = (): void => {
      if (this.#waiting || (this.readyState === SOCKET_OPEN && this.bufferedAmount > 0))
        setTimeout(look, DRAIN_LOOK_MS);
      else sent();
    };
    queueMicrotask(look);
  }

  close(code: number, reason: string): void {
    if (this.#waiting) this.#closing = [code, reason];
    else this.socket!.close(code, reason);
  }

  /** `socket` opened: what waited goes out, and a close asked meanwhile follows it. */
  opened(socket: S): void {
    this.socket = socket;
    const waiting = this.#waiting ?? [];
    this.#waiting = undefined;
    this.#waitingBytes = 0;
    for (const message of waiting) this.deliver(message);
    if (this.#closing) socket.close(...this.#closing);
  }
}
