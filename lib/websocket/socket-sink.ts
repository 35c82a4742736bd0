/**
 * A WebSocket as a stream sink: each write is one message (text for a string, binary for bytes), and what the socket
 * still holds (`bufferedAmount`) is the backpressure. The output above it holds the rest under the stream budget.
 */
import { SOCKET_OPEN, type SocketPort } from '../runtime/socket-port';
import type { StreamSink } from '../streaming/stream-sink';

/** Messages are handed to the socket while it holds less than this; past it, they wait in the output until it drains. */
const HIGH_WATER = 64 * 1024;

/** What the sink asks of the session it writes for. */
export interface SinkOwner {
  /** Closes the socket once the output ended: its close frame follows what was written. */
  closeSocket(): void;
  /** Hears of each message handed to the socket (the idle timeout counts them). */
  wrote(): void;
}

/** A class, not closures: thousands of idle sockets each hold one. */
export class SocketSink implements StreamSink {
  #ready: (() => void) | undefined;
  /** The callback of a told message, made with the first (an idle socket holds none). */
  #written: (() => void) | undefined;

  constructor(
    readonly port: SocketPort,
    readonly owner: SinkOwner,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    const { port } = this;
    if (port.readyState !== SOCKET_OPEN) return true;
    this.owner.wrote();
    // A per-message callback costs (about 1.5 µs): only a message that may take the socket past its mark is told,
    // so one is always on its way when the output waits (a character is at most 3 bytes, a frame's head 14).
    const told = port.bufferedAmount + 3 * chunk.length + 14 >= HIGH_WATER;
    port.cork?.();
    port.send(chunk, told ? (this.#written ??= () => this.#look()) : undefined);
    return port.bufferedAmount < HIGH_WATER;
  }

  onReady(callback: () => void): void {
    this.#ready = callback;
  }

  buffered(): number {
    return this.port.bufferedAmount;
  }

  /** The head of a socket is its handshake, written already. */
  open(): void {}

  end(): void {
    this.owner.closeSocket();
  }

  abort(): void {
    this.owner.closeSocket();
  }

  /** The session closes the output when the socket closes. */
  onClose(): void {}

  #look(): void {
    const ready = this.#ready;
    if (!ready || (this.port.readyState === SOCKET_OPEN && this.port.bufferedAmount >= HIGH_WATER)) return;
    this.#ready = undefined;
    ready();
  }
}
