/** Bun's sockets as `SocketPort`s: the events of `Bun.serve`'s `websocket` handlers go to the socket's data, a port. */
import { HIGH_WATER, SOCKET_OPEN, type SocketListener, type SocketPort } from './socket-port';
import { toBuffer, WaitingPort } from './waiting-port';

/** What Bun hands the `websocket` handlers: its socket, with the port as its data. */
export interface BunSocket {
  readonly data: BunPort;
  readonly readyState: number;
  send(message: string | Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  getBufferedAmount(): number;
}

/** A Bun `ServerWebSocket`, known once Bun opens it (the `open` handler). */
export class BunPort extends WaitingPort<BunSocket> implements SocketPort {
  listener: SocketListener | undefined;

  get highWater(): number {
    return HIGH_WATER;
  }

  /** What Bun queued because the kernel took no more (a send it wrote at once is not counted: measured on Bun 1.4). */
  protected get socketBuffered(): number {
    return this.socket!.getBufferedAmount();
  }

  /** Bun answers 0 when it dropped a message past its `backpressureLimit` (16 MB): 1011, not go on past a gap. */
  protected deliver(message: string | Uint8Array): void {
    const socket = this.socket!;
    if (socket.send(message) !== 0 || socket.readyState !== SOCKET_OPEN) return;
    this.listener?.error(new Error(`Bun dropped a message: the socket held ${socket.getBufferedAmount()} bytes`));
    socket.close(1011, 'A message could not be sent');
  }

  terminate(): void {
    this.socket?.terminate();
  }

  ping(): void {
    this.socket?.ping();
  }

  listen(listener: SocketListener): void {
    this.listener = listener;
  }
}

/**
 * The `websocket` handlers of `Bun.serve` for an rxrest application: each socket's events go to its session.
 *
 * @example
 * Bun.serve({ fetch: app.fetch, websocket: bunWebSocket });
 */
export const bunWebSocket = {
  open: (socket: BunSocket): void => socket.data.opened(socket),
  message: (socket: BunSocket, message: string | Uint8Array): void =>
    socket.data.listener?.message(toBuffer(message), typeof message !== 'string'),
  close: (socket: BunSocket, code: number, reason: string): void => socket.data.listener?.closed(code, reason),
  ping: (socket: BunSocket): void => socket.data.listener?.ping(),
  pong: (socket: BunSocket): void => socket.data.listener?.pong(),
};
