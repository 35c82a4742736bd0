/** What the socket ports of Bun, Deno and Workers share: messages held until the runtime opened the socket. */
import { copyBytes, utf8Bytes, utf8Length } from './bytes';
import { SOCKET_OPEN } from './socket-port';

/** How often a socket whose buffer is full is looked at again. */
const DRAIN_LOOK_MS = 5;

/**
 * A received message as the session takes it: its bytes (text as UTF-8), a `Buffer` where the runtime has one (a Worker
 * without `nodejs_compat` has none: the session reads them as a `Uint8Array`).
 */
export const toBuffer = (data: string | ArrayBuffer | Uint8Array): Buffer =>
  (typeof data === 'string' ? utf8Bytes(data) : copyBytes(data)) as Buffer;

/**
 * Messages sent before the socket opened, held until it does (a session greets in `@OnOpen` at once); while they wait
 * the socket counts as open, and holding them (their bytes count as the socket's buffer, so the session's output
 * waits for the socket as it would once open: a source answered by `@OnOpen` is not read ahead unbounded).
 */
export abstract class WaitingPort {
  #waiting: (string | Uint8Array)[] | undefined = [];
  /** The bytes of the messages waiting. */
  #waitingBytes = 0;
  #closing: [number, string] | undefined;

  protected abstract deliver(message: string | Uint8Array): void;
  protected abstract shut(code: number, reason: string): void;
  abstract get readyState(): number;
  /** Bytes the open socket holds, not yet handed to its connection. */
  protected abstract get socketBuffered(): number;

  protected get waiting(): boolean {
    return this.#waiting !== undefined;
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
   * Calls `sent` once what the socket held has gone out (or the socket closed). A Web `WebSocket` tells nothing when
   * its buffer drains, so it is looked at again a few milliseconds later; only a message that may fill the socket
   * asks, so only a socket whose client reads slowly is looked at.
   */
  #whenWritten(sent: () => void): void {
    const look = (): void => {
      if (this.waiting || (this.readyState === SOCKET_OPEN && this.bufferedAmount > 0)) setTimeout(look, DRAIN_LOOK_MS);
      else sent();
    };
    queueMicrotask(look);
  }

  close(code: number, reason: string): void {
    if (this.#waiting) this.#closing = [code, reason];
    else this.shut(code, reason);
  }

  /** The socket opened: what waited goes out, and a close asked meanwhile follows it. */
  protected opened(): void {
    const waiting = this.#waiting ?? [];
    this.#waiting = undefined;
    this.#waitingBytes = 0;
    for (const message of waiting) this.deliver(message);
    if (this.#closing) this.shut(...this.#closing);
  }
}
