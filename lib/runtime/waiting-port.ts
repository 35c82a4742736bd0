/** What the socket ports of Bun, Deno and Workers share: messages held until the runtime opened the socket. */
import { nodeBuiltin } from './node-builtins';

/** A received message as the session takes it: a `Buffer` of its bytes (text as UTF-8). */
export const toBuffer = (data: string | ArrayBuffer | Uint8Array) => {
  const { Buffer } = nodeBuiltin('node:buffer', 'WebSockets');
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data as ArrayBuffer);
};

/**
 * Messages sent before the socket opened, held until it does (a session greets in `@OnOpen` at once); while they wait
 * the socket counts as open.
 */
export abstract class WaitingPort {
  #waiting: (string | Uint8Array)[] | undefined = [];
  #closing: [number, string] | undefined;

  protected abstract deliver(message: string | Uint8Array): void;
  protected abstract shut(code: number, reason: string): void;

  protected get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  send(message: string | Uint8Array, sent?: () => void): void {
    if (this.#waiting) this.#waiting.push(message);
    else this.deliver(message);
    if (sent) queueMicrotask(sent);
  }

  close(code: number, reason: string): void {
    if (this.#waiting) this.#closing = [code, reason];
    else this.shut(code, reason);
  }

  /** The socket opened: what waited goes out, and a close asked meanwhile follows it. */
  protected opened(): void {
    const waiting = this.#waiting ?? [];
    this.#waiting = undefined;
    for (const message of waiting) this.deliver(message);
    if (this.#closing) this.shut(...this.#closing);
  }
}
