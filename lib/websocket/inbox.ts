/**
 * A socket's received messages, waiting for their handler: past `framework.websocket.incoming-buffer` bytes the
 * socket is paused (TCP then holds the peer back) and resumed once the handler has taken half of them.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs';
import { Multi, pullFrom } from '../streaming/multi';

/** Pauses and resumes one socket for all of its inboxes. */
export class FlowControl {
  #bytes = 0;
  #paused = false;
  /** Set at shutdown: the socket reads nothing more. */
  #stopped = false;

  constructor(
    readonly highWater: number,
    readonly socket: { pause(): void; resume(): void },
  ) {}

  get paused(): boolean {
    return this.#paused;
  }

  add(bytes: number): void {
    this.#bytes += bytes;
    if (!this.#paused && this.#bytes > this.highWater) {
      this.#paused = true;
      this.socket.pause();
    }
  }

  remove(bytes: number): void {
    this.#bytes -= bytes;
    if (this.#paused && !this.#stopped && this.#bytes <= this.highWater / 2) {
      this.#paused = false;
      this.socket.resume();
    }
  }

  /** Reads nothing more from the socket. */
  stop(): void {
    this.#stopped = true;
    if (!this.#paused) this.socket.pause();
    this.#paused = true;
  }
}

/** The messages of one kind (text or binary) in arrival order, taken one at a time. */
export class Inbox {
  #items: Buffer[] = [];
  #head = 0;
  #ended = false;
  #waiter: (() => void) | undefined;

  constructor(readonly flow: FlowControl) {}

  push(data: Buffer): void {
    if (this.#ended) return;
    this.#items.push(data);
    this.flow.add(data.length);
    this.#wake();
  }

  /** No more messages come (the socket closed, or reads no more). */
  end(): void {
    this.#ended = true;
    this.#wake();
  }

  get empty(): boolean {
    return this.#head === this.#items.length;
  }

  /** The next message if one is here, else `undefined`. */
  shift(): Buffer | undefined {
    if (this.#head === this.#items.length) return undefined;
    const data = this.#items[this.#head]!;
    this.#items[this.#head++] = undefined as never;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    }
    this.flow.remove(data.length);
    return data;
  }

  /** The next message, waiting for it; `undefined` once the inbox has ended and holds nothing. */
  async take(): Promise<Buffer | undefined> {
    while (this.#head === this.#items.length) {
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
    return this.shift();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}

/**
 * Every message of a socket as a Multi, for a method that takes them all. Iterated (`for await`, or returned as a
 * pulled answer) it takes the next message only when asked, so a lagging handler pauses the socket; subscribed as
 * an Observable, each message is pushed as it arrives. `next` gives the next decoded message, or `done` at the end.
 */
export class IncomingMessages<T> extends Multi<T> implements AsyncIterable<T> {
  readonly #next: () => Promise<IteratorResult<T>>;
  #taken = false;

  constructor(next: () => Promise<IteratorResult<T>>) {
    let self: IncomingMessages<T> | undefined;
    super(new Observable<T>((subscriber) => self!.#push(subscriber)));
    self = this;
    this.#next = next;
    pullFrom(this, { [Symbol.asyncIterator]: () => this[Symbol.asyncIterator]() });
  }

  override [Symbol.asyncIterator](): AsyncIterator<T> {
    this.#take();
    return { next: this.#next, return: async () => ({ done: true, value: undefined }) };
  }

  #take(): void {
    if (this.#taken)
      throw new Error(
        'The messages of a socket can be read once: subscribe to (or iterate) the Multi once, share() it for several consumers',
      );
    this.#taken = true;
  }

  #push(subscriber: Subscriber<T>): void {
    try {
      this.#take();
    } catch (error) {
      subscriber.error(error);
      return;
    }
    void (async () => {
      for (let item = await this.#next(); !item.done && !subscriber.closed; item = await this.#next())
        subscriber.next(item.value);
    })().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
  }
}
