/** A stream sink over a Node `ServerResponse`: direct writes, `drain` for backpressure, `close` for disconnects. */
import type { ServerResponse } from 'node:http';
import type { RequestContext } from '../context/request-context';
import type { StreamSink } from './stream-sink';

/** The Node response of a request served on Node (`listen()`, `@hono/node-server`) while nothing was written to it. */
export function nodeResponseOf(ctx: RequestContext): ServerResponse | undefined {
  const outgoing = ctx.node?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/** A stream sink over `response` (headers written); a class, not closures: idle streams each hold one. */
export class NodeSink implements StreamSink {
  /** Node's sockets keep the bytes written until sent, never changed; a getter: no field for idle streams to hold. */
  get sharesChunks(): boolean {
    return true;
  }
  #finished = false;
  #onClose: (() => void) | undefined;
  /** Told once the response closes; `null` once it has. */
  #gone: (() => void) | null | undefined;

  constructor(readonly response: ServerResponse) {}

  write(chunk: string | Uint8Array): boolean {
    return this.response.write(chunk);
  }

  onReady(callback: () => void): void {
    this.response.once('drain', callback);
  }

  /** The response's own buffer plus its socket's: what the client has not taken yet. */
  buffered(): number {
    return this.response.writableLength;
  }

  open(): void {
    this.response.flushHeaders();
  }

  end(): void {
    this.#finished = true;
    this.response.end();
  }

  abort(): void {
    this.#finished = true;
    // Destroyed at once, the queue (head and items) would be lost; ending after it leaves the body unterminated.
    const socket = this.response.socket;
    if (socket && !socket.destroyed) socket.destroySoon();
    else this.response.destroy();
  }

  onClose(callback: () => void): void {
    const { response } = this;
    if (response.destroyed) return void queueMicrotask(callback);
    // `on`, not `once`: a response closes once, and `once` would add a wrapper and its state to every idle stream.
    this.#onClose = callback;
    response.on('close', () => this.#closed());
  }

  /** A response closes once its bytes are all out, or its connection is gone: none is held any more. */
  whenGone(callback: () => void): void {
    if (this.#gone === null || this.response.destroyed) callback();
    else this.#gone = callback;
  }

  #closed(): void {
    const gone = this.#gone;
    this.#gone = null;
    gone?.();
    if (!this.#finished && !this.response.writableFinished) this.#onClose?.();
  }
}
