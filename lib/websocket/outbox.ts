/**
 * A socket's outgoing messages: held under the stream byte budget (what the socket itself still holds,
 * `bufferedAmount`, counts too) with the stream overflow policy, and written while the socket keeps up.
 */
import type { WebSocket } from 'ws';
import { StreamOverflowError, type OverflowPolicy } from '../streaming/backlog';

/** One message as it goes out. */
export interface OutgoingMessage {
  readonly data: string | Buffer;
  readonly binary: boolean;
}

/** Messages are handed to the socket while it holds less than this; past it, they wait here until it drains. */
const WRITE_HIGH_WATER = 64 * 1024;

const OPEN = 1;

/** How often a waiter looks at a socket whose last messages went without a callback. */
const POLL_MS = 5;

export class Outbox {
  #queue: OutgoingMessage[] = [];
  #head = 0;
  #bytes = 0;
  /** Who waits for room (pulled sources) or for everything to be written (a close after the last message). */
  #waiters: { resolve: () => void; whenEmpty: boolean }[] = [];
  /** Messages a drop policy discarded. */
  dropped = 0;

  constructor(
    readonly socket: WebSocket,
    readonly budget: number,
    readonly policy: OverflowPolicy,
  ) {}

  /** Messages waiting to be handed to the socket. */
  get size(): number {
    return this.#queue.length - this.#head;
  }

  /** Queues `message`, or applies the overflow policy when it would take the socket past the budget; throws under `fail`. */
  push(message: OutgoingMessage): void {
    const size = message.data.length;
    const held = this.socket.bufferedAmount;
    // Nothing waits and the socket keeps up: straight to it.
    if (this.size === 0 && held < WRITE_HIGH_WATER && this.socket.readyState === OPEN && held + size <= this.budget)
      return this.#send(message, held);
    if (held + this.#bytes + size > this.budget && !this.#makeRoom(size)) return;
    this.#queue.push(message);
    this.#bytes += size;
    this.pump();
  }

  /** Hands queued messages to the socket while it holds less than its high-water mark. */
  pump(): void {
    const { socket } = this;
    while (this.size > 0 && socket.readyState === OPEN && socket.bufferedAmount < WRITE_HIGH_WATER) {
      const message = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined as never;
      this.#bytes -= message.data.length;
      this.#send(message, socket.bufferedAmount);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#wake();
  }

  /** Resolves once there is room for more (nothing queued, the socket under its mark): a pulled source's pace. */
  room(): Promise<void> {
    if (this.#hasRoom()) return Promise.resolve();
    return this.#await(false);
  }

  /** Resolves once every queued message has been written to the connection (or the socket is gone). */
  drained(): Promise<void> {
    if (this.#isDrained()) return Promise.resolve();
    return this.#await(true);
  }

  #await(whenEmpty: boolean): Promise<void> {
    const waited = new Promise<void>((resolve) => this.#waiters.push({ resolve, whenEmpty }));
    // What the socket holds was sent with no callback to come: look again until it is written.
    if (this.#told === 0) this.#poll();
    return waited;
  }

  #poll(): void {
    setTimeout(() => {
      this.pump();
      if (this.#waiters.length > 0 && this.#told === 0) this.#poll();
    }, POLL_MS).unref();
  }

  /** Drops what waits and releases every waiter: the socket is gone. */
  clear(): void {
    this.#queue = [];
    this.#head = 0;
    this.#bytes = 0;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  /** Messages sent with a callback that has not come yet: each will pump and wake waiters. */
  #told = 0;

  readonly #written = (): void => {
    this.#told--;
    this.pump();
  };

  /**
   * Hands one message to the socket. Told when it is written only when that can matter: the socket getting near its
   * mark (what waits here is pumped then) or someone waiting for room or for the end; a per-message callback costs.
   */
  #send(message: OutgoingMessage, held: number): void {
    const told = held + message.data.length >= WRITE_HIGH_WATER / 2 || this.#waiters.length > 0;
    if (told) this.#told++;
    this.socket.send(message.data, { binary: message.binary }, told ? this.#written : undefined);
  }

  #hasRoom(): boolean {
    return this.socket.readyState !== OPEN || (this.size === 0 && this.socket.bufferedAmount < WRITE_HIGH_WATER);
  }

  #isDrained(): boolean {
    return this.socket.readyState !== OPEN || (this.size === 0 && this.socket.bufferedAmount === 0);
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const room = this.#hasRoom();
    const drained = this.#isDrained();
    this.#waiters = this.#waiters.filter((waiter) => {
      const ready = waiter.whenEmpty ? drained : room;
      if (ready) waiter.resolve();
      return !ready;
    });
  }

  /** False when the arriving message is to be dropped; throws under `fail`. */
  #makeRoom(size: number): boolean {
    if (this.policy === 'fail') throw new StreamOverflowError(this.budget);
    if (this.policy === 'drop-newest') {
      this.dropped++;
      return false;
    }
    // drop-oldest makes just enough room; latest keeps nothing but the arriving message.
    while (
      this.size > 0 &&
      (this.policy === 'latest' || this.socket.bufferedAmount + this.#bytes + size > this.budget)
    ) {
      const oldest = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined as never;
      this.#bytes -= oldest.data.length;
      this.dropped++;
    }
    return true;
  }
}
